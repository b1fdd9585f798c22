import Core

/// The account an `Account` moved to (`Account.moved`), boxed because an entity cannot hold
/// its own type by value. Encodes as the plain `Account` object.
public final class APIMovedAccount: Codable, Sendable, Equatable {
    /// The new account.
    public let account: APIAccount

    /// Boxes `account`.
    public init(_ account: APIAccount) { self.account = account }

    /// Reads a plain `Account` object.
    public required init(from decoder: any Decoder) throws { account = try APIAccount(from: decoder) }

    /// Writes the plain `Account` object.
    public func encode(to encoder: any Encoder) throws { try account.encode(to: encoder) }

    /// Equal when the accounts are.
    public static func == (a: APIMovedAccount, b: APIMovedAccount) -> Bool { a.account == b.account }
}

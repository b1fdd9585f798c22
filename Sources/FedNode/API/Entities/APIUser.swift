import Core
import Storage

extension EmailChange {
    /// The `User` entity of `account` (GoToSocial's `GET /api/v1/user`).
    func user(_ account: Account) async throws(NodeError) -> APIUser {
        try await read { db in
            let email = try db.accounts.credential(of: account.id)?.email ?? ""
            let role = try db.moderation.role(of: account.id)
            return APIUser(id: String(account.id), createdAt: Timestamps.iso8601(account.createdAt), email: email,
                           unconfirmedEmail: try db.emailChanges.pending(of: account.id), admin: role >= .admin,
                           moderator: role == .moderator, disabled: false, approved: true)
        }
    }
}

/// GoToSocial's `User` entity: the signed-in person's own account settings, with the address
/// waiting for confirmation after an email change.
struct APIUser: Encodable, Sendable, Equatable {
    /// The account id.
    var id: String
    /// When the account was created (ISO 8601).
    var createdAt: String
    /// The sign-in email.
    var email: String
    /// The new address an email change waits to have confirmed; `nil` when none.
    var unconfirmedEmail: String?
    /// Whether the person is an admin (or the owner).
    var admin: Bool
    /// Whether the person is a moderator.
    var moderator: Bool
    /// Whether sign-in is disabled.
    var disabled: Bool
    /// Whether the sign-up was approved.
    var approved: Bool

    private enum CodingKeys: String, CodingKey { case id, createdAt, email, unconfirmedEmail, admin, moderator, disabled, approved }

    /// Every member, `unconfirmed_email` as null when there is none (GoToSocial sends the key).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(email, forKey: .email)
        try container.encode(unconfirmedEmail, forKey: .unconfirmedEmail)
        try container.encode(admin, forKey: .admin)
        try container.encode(moderator, forKey: .moderator)
        try container.encode(disabled, forKey: .disabled)
        try container.encode(approved, forKey: .approved)
    }
}

/// An `@user` or `@user@domain` mention in the text of a local post.
public struct Mention: Sendable, Equatable, Hashable {
    /// The username as written.
    public var username: String
    /// The domain (lowercased, may carry a port), or nil for a local `@user`.
    public var domain: String?

    /// Makes a mention.
    public init(username: String, domain: String? = nil) {
        self.username = username
        self.domain = domain
    }

    /// `user@domain`, or `user` for a local mention: what WebFinger is asked for.
    public var acct: String {
        domain.map { "\(username)@\($0)" } ?? username
    }
}

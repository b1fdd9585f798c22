/// Builds this node's public URLs: `BASE/users/NAME`, `/users/NAME/statuses/ID`,
/// `/users/NAME/inbox|outbox|followers|following`. They never change once published, since
/// other servers store them as ids.
public struct NodeURLs: Sendable {
    /// Public base URL without a trailing slash.
    public let base: String
    /// The domain in handles.
    public let domain: String

    /// Creates the URL builder for a node.
    public init(base: String, domain: String) {
        self.base = base
        self.domain = domain
    }

    /// Actor id of a local account.
    public func actor(_ username: String) -> String { "\(base)/users/\(username)" }
    /// Key id of a local account's key.
    public func key(_ username: String) -> String { actor(username) + "#main-key" }
    /// Personal inbox.
    public func inbox(_ username: String) -> String { actor(username) + "/inbox" }
    /// Outbox collection.
    public func outbox(_ username: String) -> String { actor(username) + "/outbox" }
    /// Followers collection.
    public func followers(_ username: String) -> String { actor(username) + "/followers" }
    /// Following collection.
    public func following(_ username: String) -> String { actor(username) + "/following" }
    /// The `featured` collection (pinned posts), as Mastodon names it.
    public func featured(_ username: String) -> String { actor(username) + "/collections/featured" }
    /// A post's id.
    public func status(_ username: String, id: Int64) -> String { actor(username) + "/statuses/\(id)" }
    /// The web profile page (Mastodon's `/@NAME`).
    public func profile(_ username: String) -> String { "\(base)/@\(username)" }
    /// The shared inbox.
    public var sharedInbox: String { "\(base)/inbox" }
    /// A hashtag's page.
    public func tag(_ name: String) -> String { "\(base)/tags/\(name)" }
    /// An activity id minted by this node.
    public func activity(_ username: String, id: Int64) -> String { actor(username) + "/activities/\(id)" }
}

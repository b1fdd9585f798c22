/// An actor's `endpoints` object; FedNode only uses the shared inbox (ActivityPub 7.1.3).
public struct ASEndpoints: Codable, Sendable, Equatable {
    /// `sharedInbox`: one inbox for every actor on the server.
    public var sharedInbox: String?

    /// Makes an endpoints object.
    public init(sharedInbox: String? = nil) {
        self.sharedInbox = sharedInbox
    }
}

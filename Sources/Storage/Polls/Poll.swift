import Foundation

/// The poll of a post (`postId`), local or remote.
public struct Poll: Sendable, Equatable {
    /// The post it belongs to (its id is the poll's id in the client API).
    public var postId: Int64
    /// The choices, in order.
    public var options: [String]
    /// Votes of each choice, in the order of `options`.
    public var votes: [Int]
    /// Whether several choices may be picked.
    public var multiple: Bool
    /// Whether the counts stay hidden until it ends.
    public var hideTotals: Bool = false
    /// People who voted, when known.
    public var votersCount: Int?
    /// When voting ends; `nil` for no end.
    public var expiresAt: Date?
    /// When it was told or seen to have ended.
    public var closedAt: Date?

    /// Creates a poll with no votes yet.
    public init(postId: Int64, options: [String], multiple: Bool, expiresAt: Date?) {
        self.postId = postId
        self.options = options
        self.votes = Array(repeating: 0, count: options.count)
        self.multiple = multiple
        self.expiresAt = expiresAt
    }

    /// Whether voting has ended at `now`.
    public func isExpired(at now: Date = Date()) -> Bool {
        closedAt != nil || expiresAt.map { $0 <= now } ?? false
    }

    /// All votes cast (a person voting for two choices counts twice).
    public var votesCount: Int { votes.reduce(0, +) }
}

import Foundation
import GRDB

/// State of a follow relationship.
public enum FollowState: String, Codable, Sendable, DatabaseValueConvertible {
    /// Requested, waiting for the followed account (or its node) to accept.
    case pending
    /// Accepted: posts flow to the follower.
    case accepted
}

/// `accountId` follows (or asked to follow) `targetAccountId`.
public struct Follow: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "follows"
    /// Snowflake id.
    public var id: Int64
    /// The follower.
    public var accountId: Int64
    /// The followed account.
    public var targetAccountId: Int64
    /// The Follow activity's id, needed for Accept/Reject/Undo.
    public var uri: String?
    /// Pending or accepted.
    public var state: FollowState
    /// When it was requested.
    public var createdAt: Date

    /// Creates a follow row.
    public init(id: Int64 = Snowflake.next(), accountId: Int64, targetAccountId: Int64, uri: String?, state: FollowState, createdAt: Date = Date()) {
        self.id = id
        self.accountId = accountId
        self.targetAccountId = targetAccountId
        self.uri = uri
        self.state = state
        self.createdAt = createdAt
    }
}

extension Follow {
    /// The `follows` row (hand-written: see Shared/Record.swift).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["account_id"] = accountId
        container["target_account_id"] = targetAccountId
        container["uri"] = uri
        container["state"] = state
        container["created_at"] = createdAt
    }
}

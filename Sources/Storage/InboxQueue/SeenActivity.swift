import Foundation
import GRDB

/// An activity id already received from one origin, so redeliveries are acknowledged without
/// reprocessing. Keyed by (origin, id): one server cannot mark another server's ids as seen.
public struct SeenActivity: Record, Equatable {
    /// Table name.
    public static let databaseTableName = "seen_activities"
    /// `host[:port]` of the verified sender, lowercased.
    public var origin: String
    /// The activity id, or `sha256:<hex>` of the body for an activity without id.
    public var uri: String
    /// Its type, for the record.
    public var type: String?
    /// queued, processed, ignored or refused.
    public var outcome: String?
    /// First arrival.
    public var seenAt: Date

    /// Creates a seen-activity row.
    public init(origin: String, uri: String, type: String?, outcome: String?, seenAt: Date = Date()) {
        self.origin = origin
        self.uri = uri
        self.type = type
        self.outcome = outcome
        self.seenAt = seenAt
    }
}

extension SeenActivity {
    /// Deletes rows first seen before `cutoff`: a sender's retries end within days, so older
    /// ids need not be remembered (their effects are idempotent anyway).
    /// - Returns: How many rows were deleted.
    @discardableResult
    public static func prune(seenBefore cutoff: Date, in db: SQLSession) throws -> Int {
        try filter(Column("seen_at") < cutoff).deleteAll(db)
    }
}

extension SeenActivity {
    /// The `seen_activities` row (hand-written: see Shared/Record.swift).
    public func encode(to container: inout PersistenceContainer) {
        container["origin"] = origin
        container["uri"] = uri
        container["type"] = type
        container["outcome"] = outcome
        container["seen_at"] = seenAt
    }
}

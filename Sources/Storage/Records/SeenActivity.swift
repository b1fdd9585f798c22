import Foundation
import GRDB

/// An activity id already received, so redeliveries are acknowledged without reprocessing.
public struct SeenActivity: Record, Equatable {
    /// Table name.
    public static let databaseTableName = "seen_activities"
    /// The activity id.
    public var uri: String
    /// Its type, for the record.
    public var type: String?
    /// queued, processed, ignored or failed.
    public var outcome: String?
    /// First arrival.
    public var seenAt: Date

    /// Creates a seen-activity row.
    public init(uri: String, type: String?, outcome: String?, seenAt: Date = Date()) {
        self.uri = uri
        self.type = type
        self.outcome = outcome
        self.seenAt = seenAt
    }
}

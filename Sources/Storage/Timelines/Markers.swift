import Foundation
import GRDB

extension Transaction {
    /// Read markers of timelines.
    public var markers: Markers { Markers(db: session) }
}

/// Read markers of timelines.
public struct Markers { let db: SQLSession }

extension Markers {
    /// `accountId`'s markers of the given timelines (those saved).
    public func find(account accountId: Int64, timelines: [String]) throws -> [Marker] {
        // Raw SQL with the list as JSON, so the statement is prepared once per connection (the
        // web feed reads the home marker at every page).
        try Marker.fetchAll(db, sql: """
            SELECT * FROM markers WHERE account_id = ? AND timeline IN (\(BatchQuery.strings))
            """, arguments: [accountId, BatchQuery.json(timelines)])
    }

    /// Saves `lastReadId` as `accountId`'s position in `timeline`, raising its version by one.
    /// - Returns: The saved marker.
    public func save(account accountId: Int64, timeline: String, lastReadId: String, now: Date = Date()) throws -> Marker {
        var marker = try Marker.fetchOne(db, key: ["account_id": accountId, "timeline": timeline])
            ?? Marker(accountId: accountId, timeline: timeline, lastReadId: lastReadId, version: 0, updatedAt: now)
        marker.lastReadId = lastReadId
        marker.version += 1
        marker.updatedAt = now
        try marker.save(db)
        return marker
    }
}

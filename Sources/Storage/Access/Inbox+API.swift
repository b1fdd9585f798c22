import Foundation
import GRDB

extension Inbox {
    /// The parked items, oldest first, at most `limit`.
    public func parked(limit: Int = 1000) throws -> [InboxItem] { try InboxQueue.parked(limit: limit, in: db) }

    /// Puts the parked item `id` back in the queue with fresh counts, due at `now`.
    /// - Returns: Whether a parked item with that id existed.
    public func unpark(_ id: Int64, at now: Date) throws -> Bool { try InboxQueue.unpark(id, at: now, in: db) }
}

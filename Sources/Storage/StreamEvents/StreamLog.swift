import Foundation
import GRDB

// The streaming event log: the table `stream_events`, filled by triggers.

extension Transaction {
    /// The streaming event log.
    public var stream: StreamLog { StreamLog(db: session) }
}

/// The streaming event log.
public struct StreamLog { let db: SQLSession }

extension StreamLog {
    /// The id of the newest event, or 0 when the log is empty.
    public func latestId() throws -> Int64 { try StreamEvent.latestId(in: db) }

    /// Events after `id`, oldest first, at most `limit`.
    public func events(after id: Int64, limit: Int) throws -> [StreamEvent] { try StreamEvent.after(id, limit: limit, in: db) }

    /// Deletes events written before `date` whose id is at most `id` (already read).
    /// - Returns: The number of events deleted.
    @discardableResult
    public func prune(before date: Date, upTo id: Int64) throws -> Int { try StreamEvent.prune(before: date, upTo: id, in: db) }

    /// Calls `onChange` after every transaction of this process that changes the log (GRDB
    /// region observation). Errors of the observation are ignored: it only saves latency for
    /// a reader that also polls.
    /// - Returns: The observation; it lasts until cancelled.
    public static func observeChanges(in database: NodeDatabase, onChange: @escaping @Sendable () -> Void) -> ChangeObservation {
        database.observe(table: StreamEvent.databaseTableName, onChange: onChange)
    }
}

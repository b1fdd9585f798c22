import Foundation
import GRDB

// The inbound activity queue: the tables `inbox_queue` (InboxQueue, InboxItem) and
// `seen_activities` (SeenActivity).

extension Transaction {
    /// The inbound activity queue and the activities already seen.
    public var inbox: Inbox { Inbox(db: session) }
}

/// The inbound activity queue and the activities already seen.
public struct Inbox { let db: SQLSession }

extension Inbox {
    /// Records that an activity arrived, unless its origin sent that id before.
    /// - Returns: `true` the first time, `false` for a redelivery (nothing is written then).
    public func markSeen(_ seen: SeenActivity) throws -> Bool {
        // Cached statements with the columns bound directly: every accepted activity writes
        // these two rows, and Codable's per-row column-name conversion showed in its profile.
        try db.execute(cached: "INSERT OR IGNORE INTO seen_activities(origin, uri, type, outcome, seen_at) VALUES (?, ?, ?, ?, ?)",
                       arguments: [seen.origin, seen.uri, seen.type, seen.outcome, seen.seenAt])
        return db.changesCount > 0
    }

    /// Queues an accepted activity for processing.
    public func enqueue(_ item: InboxItem) throws {
        try db.execute(cached: """
            INSERT INTO inbox_queue(id, activity_id, actor_uri, recipient_account_id, payload, attempts,
                                    unfinished_attempts, parked_at, available_at, last_error, received_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [item.id, item.activityId, item.actorUri, item.recipientAccountId, item.payload, item.attempts,
                              item.unfinishedAttempts, item.parkedAt, item.availableAt, item.lastError, item.receivedAt])
    }

    /// Forgets the activity ids first seen before `cutoff`.
    /// - Returns: How many were forgotten.
    @discardableResult
    public func pruneSeen(before cutoff: Date) throws -> Int { try SeenActivity.prune(seenBefore: cutoff, in: db) }

    /// Due, unparked items in arrival order, leaving out the actors and domains given
    /// (see `InboxQueue.candidates`).
    public func candidates(
        at now: Date, excludingActors actors: Set<String>, excludingDomains domains: Set<String>, limit: Int
    ) throws -> [InboxQueue.Candidate] {
        try InboxQueue.candidates(at: now, excludingActors: actors, excludingDomains: domains, limit: limit, in: db)
    }

    /// Counts an attempt of each item as started, before its handler runs; when other
    /// processes share the database, claims the items for `holder` (`WorkLease`), one item per
    /// actor across all processes (claims are taken in turn, `ProcessLock.inboxClaims`).
    /// - Returns: The items claimed, by id, with their raised counts; an item gone, parked or
    ///   claimed elsewhere is missing.
    public func claim(_ ids: [Int64], holder: String, at now: Date) throws -> [Int64: InboxItem] {
        let lease = db.isShared ? WorkLease(holder: holder, from: now) : nil
        if lease != nil { try db.holdUntilCommit(.inboxClaims) }
        var items: [Int64: InboxItem] = [:]
        for id in ids { items[id] = try InboxQueue.claim(id, lease: lease, at: now, in: db) }
        return items
    }

    /// The verified senders of claimed items, by actor id, each with whether it is suspended:
    /// one query for a batch the worker starts, instead of a read per item. An actor no longer
    /// stored is missing.
    public func senders(_ uris: some Collection<String>) throws -> [String: InboxSender] {
        guard !uris.isEmpty else { return [:] }
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT a.*, \(Moderation.suspended("a.id")) AS sender_suspended FROM accounts a WHERE a.uri IN (\(BatchQuery.strings))
            """), arguments: [BatchQuery.json(Array(uris))])
        var senders: [String: InboxSender] = [:]
        while let row = try rows.next() {
            let account = try Account(row: row)
            senders[account.uri] = InboxSender(account: account, suspended: row["sender_suspended"])
        }
        return senders
    }

    /// Removes a finished item and records its outcome (`processed`, `ignored`, `refused`)
    /// against its activity id.
    public func finish(_ item: InboxItem, outcome: String) throws { try InboxQueue.finish(item, outcome: outcome, in: db) }

    /// Records a failed attempt of item `id` that ended, and when to try again.
    public func reschedule(_ id: Int64, attempts: Int, availableAt: Date, error: String) throws {
        try InboxQueue.reschedule(id, attempts: attempts, availableAt: availableAt, error: error, in: db)
    }

    /// Takes back the count of an attempt of item `id` interrupted by an orderly shutdown.
    public func release(_ id: Int64) throws { try InboxQueue.release(id, in: db) }

    /// Takes item `id` out of processing for `reason`, keeping it for the admin.
    public func park(_ id: Int64, reason: String, at now: Date) throws { try InboxQueue.park(id, reason: reason, at: now, in: db) }

    /// The parked items, oldest first, at most `limit`.
    public func parked(limit: Int = 1000) throws -> [InboxItem] { try InboxQueue.parked(limit: limit, in: db) }

    /// Puts the parked item `id` back in the queue with fresh counts, due at `now`.
    /// - Returns: Whether a parked item with that id existed.
    public func unpark(_ id: Int64, at now: Date) throws -> Bool { try InboxQueue.unpark(id, at: now, in: db) }
}

extension Inbox {
    /// How many items wait, by state (see `InboxQueueDepth.read`).
    public func depth(at now: Date) throws -> InboxQueueDepth { try InboxQueueDepth.read(at: now, in: db) }
}

extension Inbox {
    /// Calls `onChange` after every transaction, of any process, that queued an activity, when
    /// several processes share the database (the one that accepted it may not be the one that
    /// processes it); `nil` on SQLite, where the accepting process wakes its worker itself.
    public static func observeQueue(in database: NodeDatabase, onChange: @escaping @Sendable () -> Void) -> ChangeObservation? {
        database.isShared ? database.observe(table: InboxItem.databaseTableName, onChange: onChange) : nil
    }
}

/// The sender of a queued activity as the worker reads it before the handler runs.
public struct InboxSender: Sendable {
    /// The sender's stored account.
    public let account: Account
    /// Whether an admin suspended it (its activities are then ignored).
    public let suspended: Bool
}

import Foundation
import GRDB

// Web Push: the tables `push_subscriptions` and `push_deliveries`.

extension Transaction {
    /// Web Push subscriptions and the pushes queued for them.
    public var pushSubscriptions: PushSubscriptions { PushSubscriptions(db: session) }
}

/// Web Push subscriptions and the pushes queued for them.
public struct PushSubscriptions { let db: SQLSession }

extension PushSubscriptions {
    /// Stores `subscription` as its token's only one, replacing any earlier one (Mastodon's
    /// `POST /api/v1/push/subscription` replaces).
    public func replace(with subscription: PushSubscription) throws {
        try PushSubscription.filter(Column("token_id") == subscription.tokenId).deleteAll(db)
        try subscription.insert(db)
    }

    /// The subscription made with the token `tokenId`.
    public func find(tokenId: Int64) throws -> PushSubscription? {
        try PushSubscription.filter(Column("token_id") == tokenId).fetchOne(db)
    }

    /// The subscription with this id.
    public func find(id: Int64) throws -> PushSubscription? { try PushSubscription.fetchOne(db, key: id) }

    /// Changes the alerts and policy of the token's subscription.
    /// - Returns: The changed subscription, or `nil` when the token has none.
    public func update(tokenId: Int64, alerts: Set<String>?, policy: String?, now: Date = Date()) throws -> PushSubscription? {
        guard var subscription = try find(tokenId: tokenId) else { return nil }
        if let alerts { subscription.alerts = PushSubscription.encode(alerts) }
        if let policy { subscription.policy = policy }
        subscription.updatedAt = now
        try subscription.update(db)
        return subscription
    }

    /// Removes the token's subscription (and its queued pushes).
    public func delete(tokenId: Int64) throws {
        try PushSubscription.filter(Column("token_id") == tokenId).deleteAll(db)
    }

    /// Removes a subscription the push service says is gone (404/410), with its queued pushes.
    public func delete(id: Int64) throws { _ = try PushSubscription.deleteOne(db, key: id) }

    /// The pushes due at `now`, oldest first.
    public func due(at now: Date, limit: Int) throws -> [PushDelivery] {
        try PushDelivery.filter(Column("next_attempt_at") <= now).order(Column("next_attempt_at"), Column("id"))
            .limit(limit).fetchAll(db)
    }

    /// Calls `onChange` after every transaction of this process that changes the push queue
    /// (notifications queue pushes by trigger), so the worker wakes at once.
    public static func observeQueue(in database: NodeDatabase, onChange: @escaping @Sendable () -> Void) -> ChangeObservation {
        database.observe(table: PushDelivery.databaseTableName, onChange: onChange)
    }

    /// The due pushes, as `due`, claimed for `holder` when other processes share the database
    /// (`WorkLease`; a write transaction then): rows another process is claiming at this
    /// moment are skipped rather than waited for, rows it claimed are left to it.
    public func claimDue(at now: Date, limit: Int, holder: String) throws -> [PushDelivery] {
        guard db.isShared else { return try due(at: now, limit: limit) }
        let ids = try Int64.fetchAll(db, sql: """
            SELECT id FROM push_deliveries WHERE next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
            ORDER BY next_attempt_at, id LIMIT ?
            FOR UPDATE SKIP LOCKED
            """, arguments: [now, now, limit])
        guard !ids.isEmpty else { return [] }
        try WorkLease(holder: holder, from: now).claim(ids, of: .pushes, in: db)
        return try PushDelivery.filter(keys: ids).order(Column("next_attempt_at"), Column("id")).fetchAll(db)
    }

    /// When the next queued push nobody has claimed is due, if any is queued.
    public func nextDue(at now: Date) throws -> Date? {
        try Date.fetchOne(db, sql: "SELECT MIN(next_attempt_at) FROM push_deliveries WHERE claimed_until IS NULL OR claimed_until <= ?",
                          arguments: [now])
    }

    /// Removes a queued push (sent, or given up).
    public func finish(_ deliveryId: Int64) throws { _ = try PushDelivery.deleteOne(db, key: deliveryId) }

    /// Records a failed attempt and when to try again.
    public func reschedule(_ deliveryId: Int64, attempts: Int, nextAttemptAt: Date, status: Int?, error: String) throws {
        try db.execute(cached: """
            UPDATE push_deliveries SET attempts = ?, next_attempt_at = ?, last_status = ?, last_error = ?,
                                       claimed_by = NULL, claimed_until = NULL
            WHERE id = ?
            """, arguments: [attempts, nextAttemptAt, status, error, deliveryId])
    }

    /// How many pushes are queued.
    public func queuedCount() throws -> Int { try PushDelivery.fetchCount(db) }
}

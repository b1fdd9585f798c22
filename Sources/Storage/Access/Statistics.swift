import Foundation
import GRDB

extension Statistics {
    /// A trivial read, to tell whether the database answers (health check).
    public func ping() throws { _ = try Int.fetchOne(db, sql: "SELECT 1") }

    /// How many other nodes this one knows accounts on (distinct domains, any case).
    public func knownDomainCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT lower(domain)) FROM accounts WHERE domain IS NOT NULL") ?? 0
    }

    /// How many local accounts exist.
    public func localAccountCount() throws -> Int { try Account.allLocal.fetchCount(db) }

    /// How many local accounts posted or signed in since `date`.
    public func activeLocalAccountCount(since date: Date) throws -> Int {
        try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM accounts a WHERE a.domain IS NULL AND (
              EXISTS (SELECT 1 FROM posts p WHERE p.account_id = a.id AND p.id >= ?)
              OR EXISTS (SELECT 1 FROM credentials c WHERE c.account_id = a.id AND c.last_sign_in_at >= ?))
            """, arguments: [Snowflake.lowerBound(at: date), date]) ?? 0
    }

    /// How many posts (boosts left out) local accounts wrote.
    public func localPostCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM posts WHERE local AND reblog_of_id IS NULL") ?? 0
    }
}

extension Statistics {
    /// The stored counters (an account's followers, following and posts; a post's replies,
    /// boosts and likes) that differ from a recount of the rows, by account then post id.
    /// Empty when every counter is exact. Scans follows, posts and likes: for an operator's
    /// check (`fednode check-counters`) and tests, never for serving requests.
    public func counterMismatches() throws -> [CounterMismatch] { try CounterRecount.mismatches(db) }

    /// Sets every counter to its recount.
    public func rebuildCounters() throws { try CounterRecount.rebuild(db) }
}

import Foundation
import GRDB

// Figures about the whole node, read from the other aggregates' tables; no table of its own.
// CounterRecount checks and rebuilds `account_stats` and `post_stats`.

extension Transaction {
    /// Figures about the whole node (NodeInfo, the instance entity, health).
    public var statistics: Statistics { Statistics(db: session) }
}

/// Figures about the whole node.
public struct Statistics { let db: SQLSession }

extension Statistics {
    /// A trivial read, to tell whether the database answers (health check).
    public func ping() throws { _ = try Int.fetchOne(db, sql: "SELECT 1") }

    /// How many other nodes this one knows accounts on (distinct domains, any case).
    ///
    /// Public pages show it (`/api/v1/instance`), so it must not cost a pass over every
    /// remote account: the query steps from one domain to the next through the domain index,
    /// one index search per domain.
    public func knownDomainCount() throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: """
            WITH RECURSIVE known(domain) AS (
              SELECT MIN(domain) FROM accounts WHERE domain IS NOT NULL
              UNION ALL
              SELECT (SELECT MIN(a.domain) FROM accounts a WHERE a.domain > known.domain) FROM known WHERE known.domain IS NOT NULL
            )
            SELECT COUNT(DISTINCT lower(domain)) FROM known
            """)) ?? 0
    }

    /// The domains this node knows accounts on, lowercased and sorted, leaving out those it
    /// blocks (Mastodon's instance peers), at most `limit`; stepped through the domain index as
    /// `knownDomainCount`.
    public func knownDomains(limit: Int) throws -> [String] {
        try String.fetchAll(db, sql: """
            WITH RECURSIVE known(domain) AS (
              SELECT MIN(domain) FROM accounts WHERE domain IS NOT NULL
              UNION ALL
              SELECT (SELECT MIN(a.domain) FROM accounts a WHERE a.domain > known.domain) FROM known WHERE known.domain IS NOT NULL
            )
            SELECT DISTINCT lower(k.domain) FROM known k
            WHERE k.domain IS NOT NULL AND NOT EXISTS (SELECT 1 FROM domain_blocks b WHERE b.domain = lower(k.domain))
              AND NOT EXISTS (SELECT 1 FROM instance_domain_blocks s WHERE s.domain = lower(k.domain) AND s.severity = 'suspend')
            ORDER BY 1 LIMIT ?
            """, arguments: [limit])
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

    /// How many posts (boosts left out) local accounts wrote: the sum of their kept counters
    /// (`account_stats`), as Mastodon sums them, not a pass over every post (public pages and
    /// NodeInfo show it).
    public func localPostCount() throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: """
            SELECT COALESCE(SUM(s.statuses_count), 0) FROM accounts a JOIN account_stats s ON s.account_id = a.id WHERE a.domain IS NULL
            """)) ?? 0
    }
}

/// How much queued work a node holds (readiness, operators' status).
public struct QueueDepths: Sendable, Equatable, Codable {
    /// Inbox activities waiting to be processed (parked ones left out).
    public var inboxWaiting: Int
    /// Inbox activities parked after failing too often.
    public var inboxParked: Int
    /// Deliveries waiting to be sent or retried.
    public var deliveriesQueued: Int
}

extension Statistics {
    /// The depth of the inbox and delivery queues (from the same index-only counts as the
    /// metrics gauges).
    public func queueDepths(at now: Date = Date()) throws -> QueueDepths {
        let inbox = try InboxQueueDepth.read(at: now, in: db)
        let deliveries = try DeliveryQueueDepth.read(at: now, in: db)
        return QueueDepths(inboxWaiting: inbox.pending + inbox.retrying, inboxParked: inbox.parked,
                           deliveriesQueued: deliveries.pending + deliveries.retrying + deliveries.unavailable)
    }

    /// A real write (the readiness probe's row in `node_settings`), committed without an fsync:
    /// proves the single writer is free and the file writable without costing a sync per probe.
    public func probeWrite(at date: Date) throws {
        try db.execute(cached: "INSERT OR REPLACE INTO node_settings(key, value) VALUES ('readiness_probe', ?)", arguments: [date])
    }
}

/// One remote domain's share of a queue.
public struct DomainBacklog: Sendable, Equatable {
    /// The domain (`host[:port]`).
    public var domain: String
    /// Items queued for or from it.
    public var items: Int
    /// The oldest item's arrival (inbox) or creation (delivery).
    public var oldest: Date?
    /// The most attempts any of its items took.
    public var maxAttempts: Int
    /// For deliveries: whether the domain is marked unavailable (only probes go out).
    public var unavailable: Bool
}

extension Statistics {
    /// The `limit` remote domains with the most inbox activities waiting (parked ones left out).
    public func inboxBacklogByDomain(limit: Int) throws -> [DomainBacklog] {
        try Row.fetchAll(db, sql: """
            SELECT coalesce(domain, '?') AS domain, COUNT(*) AS items, MIN(received_at) AS oldest, MAX(attempts) AS max_attempts
            FROM inbox_queue WHERE parked_at IS NULL GROUP BY domain ORDER BY items DESC, domain LIMIT ?
            """, arguments: [limit]).map {
            DomainBacklog(domain: $0["domain"], items: $0["items"], oldest: $0["oldest"], maxAttempts: $0["max_attempts"], unavailable: false)
        }
    }

    /// The `limit` remote domains with the most deliveries queued, with their health.
    public func deliveryBacklogByDomain(limit: Int) throws -> [DomainBacklog] {
        try Row.fetchAll(db, sql: """
            SELECT q.domain AS domain, COUNT(*) AS items, MIN(q.created_at) AS oldest, MAX(q.attempts) AS max_attempts,
                   coalesce(MAX(d.unavailable), 0) AS unavailable
            FROM delivery_queue q LEFT JOIN delivery_domains d ON d.domain = q.domain
            GROUP BY q.domain ORDER BY items DESC, q.domain LIMIT ?
            """, arguments: [limit]).map {
            DomainBacklog(domain: $0["domain"], items: $0["items"], oldest: $0["oldest"], maxAttempts: $0["max_attempts"],
                          unavailable: $0["unavailable"])
        }
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

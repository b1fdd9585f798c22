import Foundation
import GRDB

extension Transaction {
    /// Follow suggestions and their dismissals.
    public var suggestions: Suggestions { Suggestions(db: session) }
}

/// Accounts suggested to follow, and the suggestions each person dismissed.
public struct Suggestions { let db: SQLSession }

/// An account suggested to a person, with why (Mastodon 4.3's `sources`).
public struct SuggestedAccount: Sendable, Equatable {
    /// The account.
    public var account: Account
    /// `friends_of_friends` and/or `most_interactions`, in that order.
    public var sources: [String]
}

extension Suggestions {
    /// Up to `limit` accounts for `viewerId` to follow: first those followed by the most of the
    /// accounts the viewer follows (`friends_of_friends`), then local accounts whose public posts
    /// since `activeSince` drew the most likes, boosts and replies (`most_interactions`). Never the
    /// viewer, accounts already followed or requested, blocked either way, dismissed, not
    /// discoverable or in a blocked domain.
    public func forAccount(_ viewerId: Int64, activeSince: Date, limit: Int) throws -> [SuggestedAccount] {
        let friends = try friendsOfFriends(viewerId, limit: limit)
        let active = try activeLocal(viewerId, since: activeSince, limit: limit)
        var order: [Int64] = []
        var sources: [Int64: [String]] = [:]
        for (id, source) in friends.map({ ($0, "friends_of_friends") }) + active.map({ ($0, "most_interactions") }) {
            if sources[id] == nil { order.append(id) }
            sources[id, default: []].append(source)
        }
        let ids = Array(order.prefix(limit))
        let accounts = Dictionary(uniqueKeysWithValues: try Account.fetchAll(db, keys: ids).map { ($0.id, $0) })
        return ids.compactMap { id in accounts[id].map { SuggestedAccount(account: $0, sources: sources[id] ?? []) } }
    }

    /// Records that `viewerId` does not want `targetId` suggested again (repeating it is harmless).
    public func dismiss(_ targetId: Int64, by viewerId: Int64, at date: Date = Date()) throws {
        try db.execute(cached: """
            INSERT OR IGNORE INTO suggestion_dismissals(account_id, target_account_id, created_at) VALUES (?, ?, ?)
            """, arguments: [viewerId, targetId, date])
    }

    private func friendsOfFriends(_ viewerId: Int64, limit: Int) throws -> [Int64] {
        try Int64.fetchAll(db, sql: """
            SELECT f2.target_account_id FROM follows f1 JOIN follows f2 ON f2.account_id = f1.target_account_id
            JOIN accounts a ON a.id = f2.target_account_id
            WHERE f1.account_id = ? AND f1.state = 'accepted' AND f2.state = 'accepted' AND \(Self.eligible("a"))
            GROUP BY f2.target_account_id ORDER BY COUNT(*) DESC, f2.target_account_id DESC LIMIT ?
            """, arguments: [viewerId] + Self.eligibleArguments(viewerId) + [limit])
    }

    private func activeLocal(_ viewerId: Int64, since: Date, limit: Int) throws -> [Int64] {
        let window = Posts.madeSince(since)
        return try Int64.fetchAll(db, sql: """
            SELECT a.id FROM accounts a JOIN posts p ON p.account_id = a.id LEFT JOIN post_stats s ON s.post_id = p.id
            WHERE a.domain IS NULL AND p.visibility = 'public' AND p.reblog_of_id IS NULL AND \(window.sql)
              AND \(Self.eligible("a"))
            GROUP BY a.id
            ORDER BY SUM(IFNULL(s.favourites_count, 0) + IFNULL(s.reblogs_count, 0) + IFNULL(s.replies_count, 0)) DESC,
                     MAX(p.id) DESC
            LIMIT ?
            """, arguments: window.arguments + Self.eligibleArguments(viewerId) + [limit])
    }

    /// SQL: the account aliased `a` may be suggested to the viewer (`eligibleArguments`).
    private static func eligible(_ a: String) -> String {
        """
        \(a).id != ? AND \(a).discoverable = 1 AND \(Directory.listable(a))
        AND NOT EXISTS (SELECT 1 FROM unconfirmed_accounts u WHERE u.account_id = \(a).id)
        AND NOT EXISTS (SELECT 1 FROM follows mf WHERE mf.account_id = ? AND mf.target_account_id = \(a).id)
        AND NOT EXISTS (SELECT 1 FROM suggestion_dismissals sd WHERE sd.account_id = ? AND sd.target_account_id = \(a).id)
        AND NOT EXISTS (SELECT 1 FROM mutes sm WHERE sm.account_id = ? AND sm.target_account_id = \(a).id)
        AND \(Directory.notBlocked("\(a).id"))
        """
    }

    private static func eligibleArguments(_ viewerId: Int64) -> StatementArguments {
        [viewerId, viewerId, viewerId, viewerId, viewerId, viewerId]
    }
}

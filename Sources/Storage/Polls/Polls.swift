import Foundation
import GRDB

// Polls: the tables `polls` and `poll_votes`.

extension Transaction {
    /// Polls and their votes.
    public var polls: Polls { Polls(db: session) }
}

/// Polls and their votes.
public struct Polls { let db: SQLSession }

extension Polls {
    private static let columns = "post_id, options, votes, multiple, hide_totals, voters_count, expires_at, closed_at"

    /// Stores `poll`, replacing what was stored of it (its votes stay).
    public func save(_ poll: Poll, at date: Date = Date()) throws {
        try db.execute(cached: """
            INSERT INTO polls(post_id, options, votes, multiple, hide_totals, voters_count, expires_at, closed_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(post_id) DO UPDATE SET options = excluded.options, votes = excluded.votes, multiple = excluded.multiple,
              hide_totals = excluded.hide_totals, voters_count = excluded.voters_count, expires_at = excluded.expires_at,
              closed_at = excluded.closed_at, updated_at = excluded.updated_at
            """, arguments: [poll.postId, Self.json(poll.options), Self.json(poll.votes), poll.multiple, poll.hideTotals,
                             poll.votersCount, poll.expiresAt, poll.closedAt, date])
    }

    /// The poll of post `postId`, if it has one.
    public func find(post postId: Int64) throws -> Poll? {
        try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM polls WHERE post_id = ?", arguments: [postId]).map(Self.poll)
    }

    /// The polls of those of `ids` that have one, by post id, in one query.
    public func polls(ofPosts ids: some Collection<Int64>) throws -> [Int64: Poll] {
        let found = try BatchQuery.rows(db, ids, sql: """
            SELECT \(Self.columns) FROM polls WHERE post_id IN (\(BatchQuery.ids))
            """, decode: Self.poll)
        return Dictionary(found.map { ($0.postId, $0) }) { first, _ in first }
    }

    /// The choices `accountId` voted for in each of the polls of `ids` they voted in.
    public func choices(of accountId: Int64, inPolls ids: some Collection<Int64>) throws -> [Int64: [Int]] {
        var choices: [Int64: [Int]] = [:]
        for (post, choice) in try BatchQuery.rows(db, ids, sql: """
            SELECT post_id, choice FROM poll_votes WHERE account_id = ? AND post_id IN (\(BatchQuery.ids)) ORDER BY post_id, choice
            """, arguments: [accountId], decode: { ($0[0] as Int64, $0[1] as Int) }) {
            choices[post, default: []].append(choice)
        }
        return choices
    }

    /// Records `accountId`'s votes for `choices` of `poll` and counts them in: each choice
    /// once, the voter once. A choice already voted for is not counted again.
    /// - Parameter uri: The vote's ActivityPub id, per choice (remote voters' `Note`s, or ours).
    /// - Returns: The poll with the new counts.
    public func vote(_ poll: Poll, by accountId: Int64, choices: [Int], uris: [String?], at date: Date = Date()) throws -> Poll {
        var poll = poll
        let votedBefore = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM poll_votes WHERE post_id = ? AND account_id = ?)",
                                            arguments: [poll.postId, accountId]) ?? false
        var counted = false
        for (index, choice) in choices.enumerated() where poll.votes.indices.contains(choice) {
            try db.execute(cached: """
                INSERT INTO poll_votes(post_id, account_id, choice, uri, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """, arguments: [poll.postId, accountId, choice, index < uris.count ? uris[index] : nil, date])
            guard db.changesCount > 0 else { continue }
            poll.votes[choice] += 1
            counted = true
        }
        if counted, !votedBefore { poll.votersCount = (poll.votersCount ?? 0) + 1 }
        if counted { try save(poll, at: date) }
        return poll
    }

    /// Whether `accountId` voted in the poll of `postId`.
    public func hasVoted(_ accountId: Int64, in postId: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM poll_votes WHERE post_id = ? AND account_id = ?)",
                          arguments: [postId, accountId]) ?? false
    }

    /// The local accounts that voted in the poll of `postId`.
    public func localVoters(of postId: Int64) throws -> [Int64] {
        try Int64.fetchAll(db, sql: """
            SELECT DISTINCT v.account_id FROM poll_votes v JOIN accounts a ON a.id = v.account_id WHERE v.post_id = ? AND a.domain IS NULL
            """, arguments: [postId])
    }

    /// The inboxes of the remote accounts that voted in the poll of `postId` (shared ones collapsed).
    public func remoteVoterInboxes(of postId: Int64) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT DISTINCT COALESCE(a.shared_inbox_url, a.inbox_url) FROM poll_votes v JOIN accounts a ON a.id = v.account_id
            WHERE v.post_id = ? AND a.domain IS NOT NULL AND COALESCE(a.shared_inbox_url, a.inbox_url) IS NOT NULL
            """, arguments: [postId])
    }

    /// Polls that ended by `now` and whose end was not notified yet, oldest first.
    public func endedUnnotified(at now: Date, limit: Int) throws -> [Poll] {
        try Row.fetchAll(db, sql: """
            SELECT \(Self.columns) FROM polls WHERE end_notified = 0 AND expires_at <= ? ORDER BY expires_at LIMIT ?
            """, arguments: [now, limit]).map(Self.poll)
    }

    /// Marks the end of the poll of `postId` notified, if no one did yet.
    /// - Returns: Whether this call marked it (so only one process notifies).
    public func markEndNotified(_ postId: Int64) throws -> Bool {
        try db.execute(cached: "UPDATE polls SET end_notified = 1 WHERE post_id = ? AND end_notified = 0", arguments: [postId])
        return db.changesCount > 0
    }

    private static func poll(_ row: Row) -> Poll {
        let options = strings(row[1])
        var poll = Poll(postId: row[0], options: options, multiple: row[3], expiresAt: row[6])
        let votes = integers(row[2])
        poll.votes = options.indices.map { $0 < votes.count ? votes[$0] : 0 }
        poll.hideTotals = row[4]
        poll.votersCount = row[5]
        poll.closedAt = row[7]
        return poll
    }

    private static func json(_ value: some Encodable) -> String {
        (try? JSONEncoder().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    private static func strings(_ text: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }

    private static func integers(_ text: String) -> [Int] {
        (try? JSONDecoder().decode([Int].self, from: Data(text.utf8))) ?? []
    }
}

import Foundation
import GRDB
import Storage

/// Search as Mastodon's `/api/v2/search` without a full-text index: people by handle or name
/// prefix (and, for signed-in callers who ask to resolve, by WebFinger or actor URL), hashtags
/// by name prefix, and posts by `#hashtag` or by their URL.
struct SearchService: Sendable {
    let node: Node

    /// One search request.
    struct Query: Sendable {
        /// What was typed.
        var text: String
        /// Results wanted.
        var limit: Int = 20
        /// Results skipped.
        var offset: Int = 0
        /// Whether unknown remote accounts may be looked up on their node (signed-in only).
        var resolve: Bool = false
        /// Only accounts the viewer follows.
        var following: Bool = false
        /// Only posts by this account.
        var accountId: Int64?
    }

    /// Accounts matching `query`, as seen by `viewer`: an exact handle or URL first, then
    /// username and display-name prefixes among discoverable or related accounts. Blocked
    /// accounts (either way) and blocked domains never appear.
    func accounts(_ query: Query, viewer: Account?) async throws(NodeError) -> [Account] {
        let text = query.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let viewerId = viewer?.id ?? 0
        var found: [Account] = []
        if query.offset == 0, let exact = try await exactAccount(text, resolve: query.resolve && viewer != nil),
            try await read({ db in try Self.isListable(exact.id, viewer: viewerId, following: query.following, in: db) }) {
            found.append(exact)
        }
        guard let prefix = Self.searchPrefix(text, localDomain: node.urls.domain) else { return found }
        let candidates = try await read { db in
            try Account.fetchAll(db.grdb, sql: """
                SELECT a.* FROM accounts a
                WHERE (a.username LIKE ?1 ESCAPE '\\' OR a.display_name LIKE ?1 ESCAPE '\\')
                  AND (a.discoverable OR a.id = ?2 OR \(Self.related))
                  AND \(Self.listable)
                  AND (?3 = 0 OR \(Self.followed))
                ORDER BY (a.username = ?4) DESC, \(Self.related) DESC, (a.domain IS NULL) DESC, a.username, a.id
                LIMIT ?5 OFFSET ?6
                """, arguments: [Self.likePrefix(prefix), viewerId, query.following, prefix, query.limit, query.offset])
        }
        found += candidates.filter { candidate in !found.contains { $0.id == candidate.id } }
        return Array(found.prefix(query.limit))
    }

    /// The prefix to match names against: the text, or a handle's username when the handle is
    /// local; `nil` for URLs and remote handles, which only match exactly.
    static func searchPrefix(_ text: String, localDomain: String) -> String? {
        if text.isEmpty || text.hasPrefix("https://") || text.hasPrefix("http://") { return nil }
        guard let handle = AccountHandle(text) else { return text }
        return handle.domain == nil || handle.domain == localDomain ? handle.username : nil
    }

    /// Hashtags whose name starts with `query.text` (a leading `#` is ignored), exact first.
    func hashtags(_ query: Query) async throws(NodeError) -> [Hashtag] {
        let name = Self.tagName(query.text)
        guard !name.isEmpty else { return [] }
        return try await read { db in
            try Hashtag.fetchAll(db.grdb, sql: """
                SELECT * FROM hashtags WHERE name LIKE ? ESCAPE '\\' ORDER BY (name = ?) DESC, length(name), name LIMIT ? OFFSET ?
                """, arguments: [Self.likePrefix(name), name, query.limit, query.offset])
        }
    }

    /// Posts `viewer` may see: those carrying the hashtag when the text is `#tag`, or the post
    /// whose id or URL the text is. Newest first.
    func posts(_ query: Query, viewer: Account?) async throws(NodeError) -> [Post] {
        let text = query.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let visible = Posts.visibilityCondition("p", viewer: viewer?.id)
        var sql = "SELECT p.* FROM posts p WHERE \(visible.sql) AND p.reblog_of_id IS NULL"
        var arguments = visible.arguments
        if text.hasPrefix("#"), !Self.tagName(text).isEmpty {
            sql += " AND p.id IN (SELECT ph.post_id FROM post_hashtags ph JOIN hashtags h ON h.id = ph.hashtag_id WHERE h.name = ?)"
            arguments += [Self.tagName(text)]
        } else if text.hasPrefix("https://") || text.hasPrefix("http://") {
            sql += " AND (p.uri = ? OR p.url = ?)"
            arguments += [text, text]
        } else {
            return []
        }
        if let accountId = query.accountId {
            sql += " AND p.account_id = ?"
            arguments += [accountId]
        }
        sql += " ORDER BY p.id DESC LIMIT ? OFFSET ?"
        arguments += [query.limit, query.offset]
        let (statement, values) = (sql, arguments)
        return try await read { db in try Post.fetchAll(db.grdb, sql: statement, arguments: values) }
    }

    // MARK: Exact matches

    /// The account a handle or actor URL names: known here, or resolved on its node when
    /// `resolve` is set (failures just mean no exact match).
    private func exactAccount(_ text: String, resolve: Bool) async throws(NodeError) -> Account? {
        if text.hasPrefix("https://") || text.hasPrefix("http://") {
            if let known = try await read({ db in try Account.filter(Column("uri") == text || Column("url") == text).fetchOne(db.grdb) }) { return known }
            guard resolve else { return nil }
            return try? await node.remoteAccounts.resolve(uri: text)
        }
        guard let handle = AccountHandle(text), let domain = handle.domain else { return nil }
        let remoteDomain = domain == node.urls.domain ? nil : domain
        if let known = try await read({ db in try Account.handle(handle.username, domain: remoteDomain).fetchOne(db.grdb) }) { return known }
        guard resolve, remoteDomain != nil else { return nil }
        return try? await node.remoteAccounts.resolve(username: handle.username, domain: domain)
    }

    // MARK: SQL pieces

    /// The viewer (`?2`) and account `a` follow each other in some way (even pending).
    private static let related = """
        EXISTS (SELECT 1 FROM follows rf WHERE (rf.account_id = ?2 AND rf.target_account_id = a.id) OR (rf.account_id = a.id AND rf.target_account_id = ?2))
        """

    /// Account `a` is in no block relation with the viewer (`?2`) and not on a blocked domain
    /// (or a subdomain of one).
    private static let listable = """
        NOT EXISTS (SELECT 1 FROM blocks lb WHERE (lb.account_id = ?2 AND lb.target_account_id = a.id) OR (lb.account_id = a.id AND lb.target_account_id = ?2))
        AND NOT EXISTS (SELECT 1 FROM domain_blocks ld WHERE ld.domain = a.domain OR a.domain LIKE '%.' || ld.domain)
        """

    /// The viewer (`?2`) follows account `a` (accepted).
    private static let followed = """
        EXISTS (SELECT 1 FROM follows sf WHERE sf.account_id = ?2 AND sf.target_account_id = a.id AND sf.state = 'accepted')
        """

    /// Whether an exact match may be listed for the viewer.
    private static func isListable(_ id: Int64, viewer: Int64, following: Bool, in db: Transaction) throws -> Bool {
        try Bool.fetchOne(db.grdb, sql: """
            SELECT EXISTS (SELECT 1 FROM accounts a WHERE a.id = ?1 AND \(listable) AND (?3 = 0 OR \(followed)))
            """, arguments: [id, viewer, following]) ?? false
    }

    /// A `LIKE` pattern matching values that start with `prefix` (wildcards escaped).
    static func likePrefix(_ prefix: String) -> String {
        prefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
    }

    /// A hashtag name from typed text: without the leading `#`, trimmed.
    static func tagName(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return String(trimmed.hasPrefix("#") ? trimmed.dropFirst() : Substring(trimmed))
    }

    private func read<T: Sendable>(_ body: @Sendable @escaping (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await node.database.read(body) } catch let error as NodeError { throw error } catch {
            throw .internal("search read: \(error)")
        }
    }
}

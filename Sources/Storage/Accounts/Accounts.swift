import Foundation
import GRDB

// Accounts, local and remote: the tables `accounts`, `credentials` (local sign-in), `tombstones`
// (deleted local objects) and `account_stats` (counters kept by triggers). The other files of
// this folder: `account_tokens` and `unconfirmed_accounts` (AccountTokens, EmailChanges),
// `account_aliases` and `account_moves` (AccountMoves), `account_notes` (AccountNotes), and an
// account's data export (AccountArchive, which reads the other aggregates' tables).

extension Transaction {
    /// Local and remote accounts, their credentials and tombstones.
    public var accounts: Accounts { Accounts(db: session) }
}

/// Local and remote accounts, their credentials and tombstones.
public struct Accounts { let db: SQLSession }

extension Accounts {
    /// The account with this id.
    public func find(id: Int64) throws -> Account? {
        try Account.fetchOne(db.cachedStatement(sql: "SELECT * FROM accounts WHERE id = ?"), arguments: [id])
    }

    /// The account whose actor id is `uri`.
    public func find(uri: String) throws -> Account? {
        try Account.fetchOne(db.cachedStatement(sql: "SELECT * FROM accounts WHERE uri = ?"), arguments: [uri])
    }

    /// The local account named `username` (ignoring case).
    public func findLocal(username: String) throws -> Account? { try Account.local(username).fetchOne(db) }

    /// The account `username@domain`, local when `domain` is `nil`.
    public func find(username: String, domain: String?) throws -> Account? {
        try Account.handle(username, domain: domain).fetchOne(db)
    }

    /// The accounts with these ids, in the order of `ids`; unknown ids are left out.
    public func find(inOrder ids: [Int64]) throws -> [Account] { try find(ids: ids).ordered(as: ids) }

    /// The accounts with these ids, in no particular order.
    public func find(ids: some Collection<Int64>) throws -> [Account] {
        try BatchQuery.records(Account.self, db, ids, sql: """
            SELECT a.* FROM \(BatchQuery.idTable) CROSS JOIN accounts a WHERE a.id = \(BatchQuery.idValue)
            """)
    }

    /// Stores a new account.
    public func insert(_ account: Account) throws { try account.insert(db) }

    /// Stores every column of an existing account.
    public func update(_ account: Account) throws { try account.update(db) }

    /// The credential of a local account.
    public func credential(of accountId: Int64) throws -> Credential? { try Credential.fetchOne(db, key: accountId) }

    /// The credential registered with `email` (ignoring case).
    public func credential(email: String) throws -> Credential? { try Credential.email(email).fetchOne(db) }

    /// The account whose public key has the id `keyId` (an HTTP signature's `keyId`).
    public func find(publicKeyId keyId: String) throws -> Account? {
        try Account.filter(Column("public_key_id") == keyId).fetchOne(db)
    }

    /// The accounts whose actor ids are among `uris`, in no particular order.
    public func find(uris: [String]) throws -> [Account] {
        guard !uris.isEmpty else { return [] }
        return try Account.fetchAll(db.cachedStatement(sql: "SELECT * FROM accounts WHERE uri IN (\(BatchQuery.strings))"),
                                    arguments: [BatchQuery.json(uris)])
    }

    /// Stores an account: updates its row when it exists, inserts it otherwise.
    public func save(_ account: Account) throws { try account.save(db) }

    /// Removes an account; foreign keys cascade to everything it owns.
    /// - Returns: Whether a row was deleted.
    @discardableResult
    public func delete(_ account: Account) throws -> Bool { try account.delete(db) }

    /// The author of `post` (cached statement: asked for every rendered status).
    public func author(of post: Post) throws -> Account? {
        try Account.fetchOne(db.cachedStatement(sql: "SELECT * FROM accounts WHERE id = ?"), arguments: [post.accountId])
    }

    /// Accepted followers, accepted follows and posts (boosts left out) of `accountId`: the
    /// kept counters, through a cached statement.
    public func entityCounts(of accountId: Int64) throws -> AccountEntityCounts {
        try AccountEntityCounts.fetchOne(db.cachedStatement(sql: "SELECT * FROM account_stats WHERE account_id = ?"), arguments: [accountId])
            ?? AccountEntityCounts()
    }

    /// The accounts with these ids, each with its figures, in one query, in no particular order.
    public func findWithFigures(ids: some Collection<Int64>) throws -> [(account: Account, figures: AccountFigures)] {
        try BatchQuery.rows(db, ids, sql: "SELECT a.*, " + Self.figures) { (try Account(row: $0), AccountFigures(row: $0)) }
    }

    /// The figures of each of `ids` that is an account, in one query (for accounts already read).
    public func figures(of ids: some Collection<Int64>) throws -> [Int64: AccountFigures] {
        let rows = try BatchQuery.rows(db, ids, sql: "SELECT a.id, " + Self.figures) { ($0[0] as Int64, AccountFigures(row: $0)) }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// The columns `AccountFigures` reads, and the rest of the query, for accounts `a` whose
    /// ids are the `BatchQuery.idTable` argument.
    private static let figures = """
        s.followers_count AS figure_followers, s.following_count AS figure_following, s.statuses_count AS figure_statuses,
          (SELECT p.created_at FROM posts p WHERE p.id = s.last_post_id) AS figure_last_post_at,
          (SELECT m.target_account_id FROM account_moves m WHERE m.account_id = a.id) AS figure_moved_to
        FROM \(BatchQuery.idTable) CROSS JOIN accounts a LEFT JOIN account_stats s ON s.account_id = a.id
        WHERE a.id = \(BatchQuery.idValue)
        """

    /// Whether an account with this id exists.
    public func exists(id: Int64) throws -> Bool { try Account.exists(db, key: id) }

    /// The tombstone left by the deleted local object (actor or post) whose id is `uri`.
    public func tombstone(uri: String) throws -> Tombstone? { try Tombstone.fetchOne(db, key: uri) }

    /// Notes a sign-in of `accountId` at `date` (NodeInfo counts accounts active by it).
    public func recordSignIn(of accountId: Int64, at date: Date) throws {
        try db.execute(cached: "UPDATE credentials SET last_sign_in_at = ? WHERE account_id = ?", arguments: [date, accountId])
    }

    /// Every local account, oldest first.
    public func allLocal() throws -> [Account] { try Account.allLocal.fetchAll(db) }

    /// Whether a local account named `username` (ignoring case) exists.
    public func localExists(username: String) throws -> Bool { try Account.local(username).fetchCount(db) > 0 }

    /// Whether a credential with `email` (ignoring case) exists.
    public func emailExists(_ email: String) throws -> Bool { try Credential.email(email).fetchCount(db) > 0 }

    /// The account whose actor id or profile URL is `uriOrURL`.
    public func find(uriOrURL: String) throws -> Account? {
        try Account.filter(Column("uri") == uriOrURL || Column("url") == uriOrURL).fetchOne(db)
    }

    /// Stores the credential of a new local account.
    public func insertCredential(_ credential: Credential) throws { try credential.insert(db) }

    /// Stores a tombstone, updating the one with the same uri if there is one (record `save`).
    public func saveTombstone(_ tombstone: Tombstone) throws { try tombstone.save(db) }

    /// The tombstones of deleted local actors among the delivery signers `ids` that still keep
    /// a signing key (their last deliveries are not done).
    public func departedSigners(ids: some Collection<Int64>) throws -> [Tombstone] {
        try Tombstone.filter(ids.contains(Column("signer_id")) && Column("private_key_pem") != nil).fetchAll(db)
    }

    /// Drops the keys kept on deleted actors' tombstones once none of their deliveries is left
    /// in the queue (each was sent or given up).
    /// - Returns: How many keys were dropped.
    @discardableResult
    public func forgetDepartedKeys() throws -> Int {
        try db.execute(cached: """
            UPDATE tombstones SET private_key_pem = NULL, key_id = NULL
            WHERE private_key_pem IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM delivery_queue d WHERE d.account_id = tombstones.signer_id)
            """)
        return db.changesCount
    }

    /// Stores a tombstone, replacing the one with the same uri (`INSERT OR REPLACE`).
    public func replaceTombstone(_ tombstone: Tombstone) throws { try tombstone.insert(db, onConflict: .replace) }

    /// The remote accounts mentioned in `postId` or whose post it replies to (`inReplyToAccountId`).
    public func remoteInvolved(inPost postId: Int64, inReplyToAccountId: Int64?) throws -> [Account] {
        try Account.fetchAll(db, sql: """
            SELECT a.* FROM accounts a WHERE a.domain IS NOT NULL AND (a.id IN (SELECT account_id FROM mentions WHERE post_id = ?) OR a.id = ?)
            """, arguments: [postId, inReplyToAccountId])
    }

    /// Whether `error`, thrown by a write, is a uniqueness violation (a name or email already taken).
    public static func isUniquenessViolation(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
    }

    // MARK: Search

    /// Accounts whose username or display name starts with `prefix` (wildcards in it match
    /// literally), as `viewerId` (0: anonymous) may list them: discoverable or related to the
    /// viewer, in no block relation with the viewer, not on a blocked domain (or a subdomain of
    /// one), and, with `onlyFollowed`, followed by the viewer. The exact username first, then
    /// related accounts, local ones, by username.
    ///
    /// Only `candidates` are ranked, so a short prefix that matches most known accounts costs
    /// a bounded read instead of sorting every match.
    public func search(prefix: String, viewer viewerId: Int64, onlyFollowed: Bool, limit: Int, offset: Int) throws -> [Account] {
        try Account.fetchAll(db, sql: """
            SELECT a.* FROM accounts a
            WHERE \(Self.candidates) AND (a.username LIKE ?1 ESCAPE '\\' OR a.display_name LIKE ?1 ESCAPE '\\')
              AND (a.discoverable OR a.id = ?2 OR \(Self.related))
              AND \(Self.listable)
              AND (?3 = 0 OR \(Self.followed))
            ORDER BY (a.username = ?4) DESC, \(Self.related) DESC, (a.domain IS NULL) DESC, a.username, a.id
            LIMIT ?5 OFFSET ?6
            """, arguments: [Tags.likePattern(prefix: prefix), viewerId, onlyFollowed, prefix, limit, offset])
    }

    /// Whether account `id` may be listed in `viewerId`'s search results as an exact match: in
    /// no block relation with the viewer, not on a blocked domain, and, with `onlyFollowed`,
    /// followed by the viewer.
    public func isListable(_ id: Int64, viewer viewerId: Int64, onlyFollowed: Bool) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM accounts a WHERE a.id = ?1 AND \(Self.listable) AND (?3 = 0 OR \(Self.followed)))
            """, arguments: [id, viewerId, onlyFollowed]) ?? false
    }

    // MARK: SQL pieces of the search

    /// Accounts `a` a search for the prefix pattern `?1` (the exact name `?4`) by the viewer
    /// (`?2`) may rank, for a page of `?5` from `?6`: the first 1,000 (past the page) discoverable
    /// accounts with a matching username or display name in index order, accounts with the
    /// exact name, matching local accounts and those related to the viewer (each group bounded
    /// by the index, the node's own people or the viewer's follows). A non-discoverable account
    /// is listed only when related to the viewer, so the first two groups skip them.
    private static let candidates = """
        a.id IN (
          SELECT id FROM (SELECT c.id FROM accounts c WHERE c.username LIKE ?1 ESCAPE '\\' AND c.discoverable
                          ORDER BY c.username LIMIT ?5 + ?6 + 1000)
          UNION ALL SELECT id FROM (SELECT c.id FROM accounts c WHERE c.display_name LIKE ?1 ESCAPE '\\' AND c.discoverable
                                    ORDER BY c.display_name COLLATE NOCASE LIMIT ?5 + ?6 + 1000)
          UNION ALL SELECT c.id FROM accounts c WHERE c.username = ?4
          UNION ALL SELECT c.id FROM accounts c WHERE c.domain IS NULL AND (c.username LIKE ?1 ESCAPE '\\' OR c.display_name LIKE ?1 ESCAPE '\\')
          UNION ALL SELECT rf.target_account_id FROM follows rf WHERE rf.account_id = ?2
          UNION ALL SELECT rf.account_id FROM follows rf WHERE rf.target_account_id = ?2)
        """

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
}

/// The counts shown on an `Account` entity, as this node knows them (a row of `account_stats`).
public struct AccountEntityCounts: Sendable, Equatable, FetchableRecord {
    /// Accepted followers.
    public var followers: Int
    /// Accepted follows.
    public var following: Int
    /// Posts, boosts left out.
    public var statuses: Int

    /// Counts; zeros by default.
    public init(followers: Int = 0, following: Int = 0, statuses: Int = 0) {
        self.followers = followers
        self.following = following
        self.statuses = statuses
    }

    /// Decodes an `account_stats` row.
    public init(row: Row) {
        self.init(followers: row["followers_count"], following: row["following_count"], statuses: row["statuses_count"])
    }
}

/// What an `Account` entity shows besides the account's row, read with it in one query
/// (`Accounts.findWithFigures`), as Mastodon keeps them in `account_stats`.
public struct AccountFigures: Sendable, Equatable {
    /// The kept counters (zeros for an account without a counter row).
    public var counts: AccountEntityCounts
    /// When the account's newest post or boost was made; `nil` when it has none.
    public var lastPostAt: Date?
    /// The account it moved to, if it moved.
    public var movedToId: Int64?

    /// Figures as given; zeros and nothing by default.
    public init(counts: AccountEntityCounts = AccountEntityCounts(), lastPostAt: Date? = nil, movedToId: Int64? = nil) {
        (self.counts, self.lastPostAt, self.movedToId) = (counts, lastPostAt, movedToId)
    }

    /// Reads the `figure_` columns of `Accounts.findWithFigures`.
    init(row: Row) {
        counts = AccountEntityCounts(followers: row["figure_followers"] ?? 0, following: row["figure_following"] ?? 0,
                                     statuses: row["figure_statuses"] ?? 0)
        lastPostAt = row["figure_last_post_at"]
        movedToId = row["figure_moved_to"]
    }
}

/// The counts shown on a `Status` entity (a row of `post_stats`).
public struct PostCounts: Sendable, Equatable, FetchableRecord {
    /// The post counted (0 for the zeros of a post without a row).
    public var postId: Int64
    /// Replies everyone may see (public and unlisted).
    public var replies: Int
    /// Boosts.
    public var reblogs: Int
    /// Likes.
    public var favourites: Int

    /// Counts; zeros by default.
    public init(postId: Int64 = 0, replies: Int = 0, reblogs: Int = 0, favourites: Int = 0) {
        self.postId = postId
        self.replies = replies
        self.reblogs = reblogs
        self.favourites = favourites
    }

    /// Decodes a `post_stats` row.
    public init(row: Row) {
        self.init(postId: row["post_id"], replies: row["replies_count"], reblogs: row["reblogs_count"], favourites: row["favourites_count"])
    }
}

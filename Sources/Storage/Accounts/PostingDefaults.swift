import Foundation
import GRDB

// What a local account's new posts get when the app leaves it out: the table `posting_defaults`.

extension Transaction {
    /// Local accounts' posting defaults.
    public var postingDefaults: PostingDefaultsStore { PostingDefaultsStore(db: session) }
}

/// A local account's posting defaults (Mastodon's `source[privacy]`, `source[sensitive]` and
/// `source[language]`).
public struct PostingDefaults: Sendable, Equatable {
    /// Audience of new posts.
    public var visibility: Visibility
    /// Whether new posts' media is marked sensitive.
    public var sensitive: Bool
    /// ISO 639-1 code of new posts, or none.
    public var language: String?

    /// The defaults of an account that never changed them: public, not sensitive, no language.
    public static let standard = PostingDefaults(visibility: .public, sensitive: false, language: nil)

    /// Creates defaults.
    public init(visibility: Visibility, sensitive: Bool, language: String?) {
        self.visibility = visibility
        self.sensitive = sensitive
        self.language = language
    }
}

/// Local accounts' posting defaults.
public struct PostingDefaultsStore { let db: SQLSession }

extension PostingDefaultsStore {
    /// `accountId`'s defaults (`standard` when never set).
    public func of(_ accountId: Int64) throws -> PostingDefaults {
        guard let row = try Row.fetchOne(db, sql: "SELECT visibility, sensitive, language FROM posting_defaults WHERE account_id = ?",
                                         arguments: [accountId]) else { return .standard }
        return PostingDefaults(visibility: Visibility(rawValue: row[0]) ?? .public, sensitive: row[1], language: row[2])
    }

    /// Stores `accountId`'s defaults, replacing the old ones.
    public func set(_ defaults: PostingDefaults, of accountId: Int64) throws {
        try db.execute(cached: """
            INSERT INTO posting_defaults(account_id, visibility, sensitive, language) VALUES (?, ?, ?, ?)
            ON CONFLICT(account_id) DO UPDATE SET visibility = excluded.visibility, sensitive = excluded.sensitive, language = excluded.language
            """, arguments: [accountId, defaults.visibility.rawValue, defaults.sensitive, defaults.language])
    }
}

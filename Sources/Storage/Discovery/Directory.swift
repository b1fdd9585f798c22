import Foundation
import GRDB

// Discovery: the profile directory (Directory), follow suggestions and the table
// `suggestion_dismissals` (Suggestions), and trends (Trends), read from the other aggregates' tables.

extension Transaction {
    /// The profile directory.
    public var directory: Directory { Directory(db: session) }
}

/// The profile directory: discoverable accounts, as `GET /api/v1/directory` lists them.
public struct Directory { let db: SQLSession }

/// How the profile directory is ordered (Mastodon's `order`).
public enum DirectoryOrder: String, Sendable {
    /// Most recently posting first; accounts that never posted here last.
    case active
    /// Newest accounts first.
    case new
}

extension Directory {
    /// One page of discoverable accounts `viewer` may see: not in a blocked domain, not blocking
    /// or blocked by the viewer, not waiting for email confirmation.
    /// - Parameters:
    ///   - localOnly: Only this node's accounts.
    ///   - offset: Accounts skipped (Mastodon's directory pages by offset).
    public func accounts(viewer: Int64?, localOnly: Bool, order: DirectoryOrder, offset: Int, limit: Int) throws -> [Account] {
        var conditions = ["a.discoverable = 1", Self.listable("a"),
                          "NOT EXISTS (SELECT 1 FROM unconfirmed_accounts u WHERE u.account_id = a.id)"]
        var arguments: StatementArguments = []
        if localOnly { conditions.append("a.domain IS NULL") }
        if let viewer {
            conditions.append(Self.notBlocked("a.id"))
            arguments += [viewer, viewer]
        }
        let condition = conditions.joined(separator: " AND ")
        guard order == .active else {
            return try Account.fetchAll(db, sql: "SELECT a.* FROM accounts a WHERE \(condition) ORDER BY a.id DESC LIMIT ? OFFSET ?",
                                        arguments: arguments + [limit, offset])
        }
        // Those that posted, newest post first, through the index on the kept newest post
        // (`account_stats.last_post_id`), then those that never did, newest account first.
        let posted = try Account.fetchAll(db, sql: """
            SELECT a.* FROM account_stats s JOIN accounts a ON a.id = s.account_id
            WHERE s.last_post_id IS NOT NULL AND \(condition) ORDER BY s.last_post_id DESC LIMIT ? OFFSET ?
            """, arguments: arguments + [limit, offset])
        guard posted.count < limit else { return posted }
        // Where the page reaches past them: how many there are tells where the others start.
        let postedCount = posted.isEmpty && offset > 0
            ? try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM account_stats s JOIN accounts a ON a.id = s.account_id WHERE s.last_post_id IS NOT NULL AND \(condition)
                """, arguments: arguments) ?? 0
            : offset + posted.count
        let never = try Account.fetchAll(db, sql: """
            SELECT a.* FROM accounts a WHERE \(condition)
              AND NOT EXISTS (SELECT 1 FROM account_stats s WHERE s.account_id = a.id AND s.last_post_id IS NOT NULL)
            ORDER BY a.id DESC LIMIT ? OFFSET ?
            """, arguments: arguments + [limit - posted.count, max(0, offset - postedCount)])
        return posted + never
    }

    /// SQL: the account aliased `alias` is not in a blocked domain.
    static func listable(_ alias: String) -> String {
        // Nor suspended by the moderators.
        """
        (\(alias).domain IS NULL OR NOT EXISTS (SELECT 1 FROM domain_blocks d WHERE d.domain = \(alias).domain)) \
        AND NOT EXISTS (SELECT 1 FROM account_moderation am WHERE am.account_id = \(alias).id AND am.suspended_at IS NOT NULL)
        """
    }

    /// SQL with two `?` (the viewer, twice): no block between the viewer and the account `column`.
    static func notBlocked(_ column: String) -> String {
        """
        NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.account_id = ? AND b.target_account_id = \(column))
          OR (b.account_id = \(column) AND b.target_account_id = ?))
        """
    }
}

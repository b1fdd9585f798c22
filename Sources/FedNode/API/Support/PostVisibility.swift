import GRDB
import Storage

/// Who may see a post, in one place for every endpoint: public and unlisted posts are seen by
/// everyone, followers-only posts by the author's accepted followers, direct posts by the
/// people mentioned; the author always; never anyone in a block relation with the author, or
/// on a domain the node blocks.
public enum PostVisibility {
    /// An SQL condition on the posts table aliased `alias` that holds when `viewerId` (or an
    /// anonymous viewer, `nil`) may see the row, with its arguments.
    public static func condition(_ alias: String, viewer viewerId: Int64?) -> (sql: String, arguments: StatementArguments) {
        let p = alias
        guard let viewerId else {
            return ("(\(p).visibility IN ('public', 'unlisted') AND \(notDomainBlocked(p)))", [])
        }
        let sql = """
            ((\(p).visibility IN ('public', 'unlisted') OR \(p).account_id = ?
              OR (\(p).visibility = 'private' AND EXISTS (SELECT 1 FROM follows vf WHERE vf.account_id = ?
                  AND vf.target_account_id = \(p).account_id AND vf.state = 'accepted'))
              OR EXISTS (SELECT 1 FROM mentions vm WHERE vm.post_id = \(p).id AND vm.account_id = ?))
             AND NOT EXISTS (SELECT 1 FROM blocks vb WHERE (vb.account_id = ? AND vb.target_account_id = \(p).account_id)
                  OR (vb.account_id = \(p).account_id AND vb.target_account_id = ?))
             AND \(notDomainBlocked(p)))
            """
        return (sql, [viewerId, viewerId, viewerId, viewerId, viewerId])
    }

    /// Whether `viewerId` may see `post` (and, for a boost, the boosted post).
    public static func canSee(_ post: Post, viewer viewerId: Int64?, in db: Transaction) throws -> Bool {
        let (sql, arguments) = condition("p", viewer: viewerId)
        var ids = [post.id]
        if let original = post.reblogOfId { ids.append(original) }
        for id in ids {
            let visible = try Bool.fetchOne(db.grdb, sql: "SELECT EXISTS (SELECT 1 FROM posts p WHERE p.id = ? AND \(sql))",
                                            arguments: [id] + arguments) ?? false
            if !visible { return false }
        }
        return true
    }

    private static func notDomainBlocked(_ p: String) -> String {
        "NOT EXISTS (SELECT 1 FROM accounts va JOIN domain_blocks vd ON vd.domain = va.domain WHERE va.id = \(p).account_id)"
    }
}

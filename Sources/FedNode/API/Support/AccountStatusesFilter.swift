import GRDB
import Storage

/// The filters of `GET /api/v1/accounts/:id/statuses`, as one query over the author's posts
/// (index `posts_by_account`), through the one visibility rule for the post and, for a boost,
/// the boosted post.
struct AccountStatusesFilter: Sendable {
    /// Only posts with media.
    var onlyMedia = false
    /// Leave out replies to others (replies to oneself, threads, stay, as in Mastodon).
    var excludeReplies = false
    /// Leave out boosts.
    var excludeReblogs = false
    /// Only posts carrying this hashtag.
    var tagged: String?

    /// Reads the filters from the request parameters.
    init(params: APIParams) {
        onlyMedia = params.bool("only_media") ?? false
        excludeReplies = params.bool("exclude_replies") ?? false
        excludeReblogs = params.bool("exclude_reblogs") ?? false
        tagged = params.nonEmpty("tagged").map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }
    }

    /// One page of `accountId`'s posts that `viewerId` may see, newest first.
    func posts(of accountId: Int64, viewer viewerId: Int64?, page: PageQuery, in db: Transaction) throws -> [Post] {
        let visible = PostVisibility.condition("p", viewer: viewerId)
        let originalVisible = PostVisibility.condition("o", viewer: viewerId)
        var sql = """
            SELECT p.* FROM posts p WHERE p.account_id = ? AND \(visible.sql)
              AND (p.reblog_of_id IS NULL OR EXISTS (SELECT 1 FROM posts o WHERE o.id = p.reblog_of_id AND \(originalVisible.sql)))
            """
        var arguments: StatementArguments = [accountId]
        arguments += visible.arguments
        arguments += originalVisible.arguments
        if onlyMedia {
            sql += " AND EXISTS (SELECT 1 FROM media_attachments m WHERE m.post_id = COALESCE(p.reblog_of_id, p.id))"
        }
        if excludeReplies { sql += " AND (p.in_reply_to_id IS NULL OR p.in_reply_to_account_id = p.account_id)" }
        if excludeReblogs { sql += " AND p.reblog_of_id IS NULL" }
        if let tagged {
            sql += """
                 AND EXISTS (SELECT 1 FROM post_hashtags ph JOIN hashtags h ON h.id = ph.hashtag_id
                             WHERE ph.post_id = COALESCE(p.reblog_of_id, p.id) AND h.name = ?)
                """
            arguments += [tagged]
        }
        let (bounds, boundArguments) = page.condition("p.id")
        sql += " AND \(bounds) ORDER BY \(page.order("p.id")) LIMIT ?"
        arguments += StatementArguments(boundArguments)
        arguments += [page.limit]
        return page.newestFirst(try Post.fetchAll(db.grdb, sql: sql, arguments: arguments))
    }
}

import Foundation
import GRDB

extension Posts {
    /// The newest `perPost` comments on each of `postIds` that `viewerId` may see, in one query
    /// for a whole feed page (the web app's cards show the latest comments under each photo).
    /// - Returns: The comments, oldest first.
    public func latestReplies(to postIds: [Int64], perPost: Int, viewer viewerId: Int64?) throws -> [Post] {
        guard !postIds.isEmpty, perPost > 0 else { return [] }
        let visible = Self.visibilityCondition("p", viewer: viewerId)
        var arguments: StatementArguments = [BatchQuery.json(postIds)]
        arguments += visible.arguments
        arguments += [perPost]
        // The ids in one JSON argument: the text depends only on whether there is a viewer.
        return try Post.fetchAll(db.cachedStatement(sql: """
            SELECT * FROM (
              SELECT p.*, ROW_NUMBER() OVER (PARTITION BY p.in_reply_to_id ORDER BY p.id DESC) AS web_rank
              FROM \(BatchQuery.idTable) CROSS JOIN posts p WHERE p.in_reply_to_id = \(BatchQuery.idValue) AND \(visible.sql)
            ) WHERE web_rank <= ? ORDER BY id
            """), arguments: arguments)
    }
}

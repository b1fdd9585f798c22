import Core
import Storage

/// The filters of `GET /api/v1/accounts/:id/statuses`, applied by one query over the author's
/// posts (`Timelines.profile`), through the one visibility rule for the post and, for a boost,
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
        try db.timelines.profile(of: accountId, viewer: viewerId, onlyMedia: onlyMedia, excludeReplies: excludeReplies,
                                 excludeReblogs: excludeReblogs, tagged: tagged, page: page.bounds)
    }
}

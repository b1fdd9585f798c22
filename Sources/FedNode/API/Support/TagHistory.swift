import Core
import Foundation
import Storage

/// A hashtag's daily use over the last week (`Tag.history`), from the posts that carry it.
enum TagHistory {
    /// Days reported, today included.
    static let days = 7

    /// Uses and distinct authors per UTC day (public and unlisted posts only, as Mastodon counts), newest day first, `days` entries (zeros included).
    static func history(of hashtagId: Int64, now: Date = Date(), in db: Transaction) throws -> [APITagHistory] {
        try history(now: now) { start in try db.tags.dailyUse(of: hashtagId, since: start) }
    }

    /// The same `days` entries from the per-day use `uses` reads from its start day on (a
    /// hashtag's, or a trending link's).
    static func history(now: Date = Date(), _ uses: (Date) throws -> [TagDayUse]) throws -> [APITagHistory] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let today = calendar.startOfDay(for: now)
        let start = calendar.date(byAdding: .day, value: -(days - 1), to: today)!
        var byDay: [String: (Int, Int)] = [:]
        for use in try uses(start) { byDay[use.day] = (use.uses, use.accounts) }
        let format = Date.ISO8601FormatStyle(timeZone: calendar.timeZone).year().month().day()
        return (0..<days).map { offset in
            let day = calendar.date(byAdding: .day, value: -offset, to: today)!
            let (uses, accounts) = byDay[day.formatted(format)] ?? (0, 0)
            return APITagHistory(day: String(Int(day.timeIntervalSince1970)), uses: String(uses), accounts: String(accounts))
        }
    }

    /// The `Tag` entity of `hashtag` with its history; `following` (whether the viewer follows
    /// the tag) only for a signed-in viewer.
    static func tag(_ hashtag: Hashtag, urls: NodeURLs, viewer: Account?, in db: Transaction) throws -> APITag {
        let name = hashtag.name.lowercased()
        let following = try viewer.map { try db.followedTags.isFollowed(hashtag.id, by: $0.id) }
        return APITag(name: name, url: urls.tag(name), history: try history(of: hashtag.id, in: db), following: following)
    }
}

import Foundation
import GRDB

/// Which group a notification belongs to, as Mastodon 4.3's grouped notifications see it: likes
/// of one post, boosts of one post and new followers group when they come within the same
/// twelve hours (windows counted in UTC from the epoch); every other notification is a group of
/// its own, `ungrouped-ID`. The key is computed from the notification's type, post and id (a
/// time-ordered `Snowflake`), so nothing is stored for it and any key an app sends back can be
/// turned into the id range of its members.
public struct NotificationGroupKey: Hashable, Sendable, CustomStringConvertible {
    /// The types that group by default, and the only ones that can (Mastodon's
    /// `GROUPABLE_NOTIFICATION_TYPES`).
    public static let groupableTypes: Set<NotificationType> = [.favourite, .reblog, .follow]
    /// How long a group gathers notifications, in milliseconds.
    static let window: Int64 = 12 * 3600 * 1000
    /// The last window whose ids still fit in an `Int64` (milliseconds in the high 48 bits).
    static let lastWindow: Int64 = (Int64.max >> 16) / window - 1

    private enum Kind: Hashable {
        case single(id: Int64)
        case group(type: NotificationType, postId: Int64?, window: Int64)
    }

    private let kind: Kind

    /// The group of `item` when the types in `grouping` group (only groupable ones do).
    public init(_ item: AccountNotification, grouping: Set<NotificationType> = groupableTypes) {
        let groups = grouping.contains(item.type) && Self.groupableTypes.contains(item.type)
            && (item.type == .follow) == (item.postId == nil)
        kind = groups ? .group(type: item.type, postId: item.postId, window: (item.id >> 16) / Self.window) : .single(id: item.id)
    }

    /// A key an app sent back (`favourite-POST-WINDOW`, `reblog-POST-WINDOW`, `follow-WINDOW`,
    /// `ungrouped-ID`); `nil` for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        // Digits only, without leading zeros: each group has one spelling.
        func number(_ part: Substring) -> Int64? {
            guard part.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), part == "0" || !part.hasPrefix("0"),
                let value = Int64(part)
            else { return nil }
            return value
        }
        switch (parts.first, parts.count) {
        case ("ungrouped", 2):
            guard let id = number(parts[1]) else { return nil }
            kind = .single(id: id)
        case ("follow", 2):
            guard let window = number(parts[1]), window <= Self.lastWindow else { return nil }
            kind = .group(type: .follow, postId: nil, window: window)
        case (let name?, 3) where name == "favourite" || name == "reblog":
            guard let type = NotificationType(rawValue: String(name)), let postId = number(parts[1]),
                let window = number(parts[2]), window <= Self.lastWindow
            else { return nil }
            kind = .group(type: type, postId: postId, window: window)
        default:
            return nil
        }
    }

    /// Whether the key stands for one notification only.
    public var isSingle: Bool {
        if case .single = kind { return true }
        return false
    }

    /// The key as apps see it.
    public var description: String {
        switch kind {
        case .single(let id): "ungrouped-\(id)"
        case .group(let type, let postId?, let window): "\(type.rawValue)-\(postId)-\(window)"
        case .group(let type, nil, let window): "\(type.rawValue)-\(window)"
        }
    }

    /// The SQL condition on `notifications n` that selects the group's members (of any
    /// recipient: callers add theirs), with its arguments.
    var members: (sql: String, arguments: StatementArguments) {
        switch kind {
        case .single(let id):
            return ("n.id = ?", [id])
        case .group(let type, let postId, let window):
            let ids: StatementArguments = [(window * Self.window) << 16, ((window + 1) * Self.window) << 16]
            guard let postId else { return ("n.type = ? AND n.post_id IS NULL AND n.id >= ? AND n.id < ?", [type.rawValue] + ids) }
            return ("n.type = ? AND n.post_id = ? AND n.id >= ? AND n.id < ?", [type.rawValue, postId] + ids)
        }
    }
}

/// One group of a grouped page: what `GET /api/v2/notifications` says of it.
public struct NotificationGroup: Sendable {
    /// The group.
    public var key: NotificationGroupKey
    /// Its newest notification on the page (type and post are the group's).
    public var latest: AccountNotification
    /// How many notifications the group holds, up to the page's newest.
    public var count: Int
    /// The newest of them.
    public var mostRecentId: Int64
    /// Who caused the newest eight, newest first.
    public var sampleAccountIds: [Int64]
    /// The oldest of them on the page.
    public var pageMinId: Int64
    /// When the newest of them came.
    public var latestAt: Date
}

/// A page of grouped notifications, newest group first.
public struct NotificationGroupPage: Sendable {
    /// The groups, each once, ordered by their newest notification on the page.
    public var groups: [NotificationGroup]
    /// The newest and the oldest notification the page read (the `Link` header's cursors), or
    /// `nil` when it read none.
    public var cursors: (newest: Int64, oldest: Int64)?
}

extension Notifications {
    /// How many notifications one grouped page reads at most: a page of likes on one post can
    /// hold thousands, and reading them all would make one request as slow as the post is liked.
    /// A page cut short ends at the last notification read, and the next one goes on from there.
    static let groupScanLimit = 4_000
    /// The most notifications a group counts: `notifications_count` stops there (a post liked
    /// more often within twelve hours shows that many), so one group costs a bounded read.
    static let groupCountLimit = 5_000
    /// How many of a group's newest senders it names (Mastodon's `SAMPLE_ACCOUNTS_SIZE`).
    static let groupSampleSize = 8

    /// One page of `recipient`'s shown notifications as groups (`GET /api/v2/notifications`):
    /// notifications are read newest first (oldest first for `min_id`) with the filters of
    /// `page(of:...)`, each group taken once, until `page.limit` groups; then each group is
    /// counted up to the page's newest notification, with its eight newest senders.
    /// - Parameter grouping: The types that group (`grouped_types[]`); others are single.
    public func groupedPage(of recipient: Int64, types: [String], excluding excludedTypes: [String], from: Int64?,
                            grouping: Set<NotificationType>, page: PageBounds) throws -> NotificationGroupPage {
        let walk = try walkGroups(of: recipient, types: types, excluding: excludedTypes, from: from, grouping: grouping, page: page,
                                  groupLimit: page.limit)
        guard let newest = walk.newest, let oldest = walk.oldest else { return NotificationGroupPage(groups: [], cursors: nil) }
        // A last page counts its groups up to (or down to) the page's bound, as Mastodon does.
        // The bounds are the client's: `&-`/`&+` cannot trap, and no row lies past either end.
        let ascending = page.minId != nil
        let top = walk.exhausted && ascending ? (page.maxId.map { $0 &- 1 } ?? Int64.max) : newest
        let bottom = walk.exhausted && !ascending ? (page.sinceId.map { $0 &+ 1 } ?? 0) : oldest
        // Groups in the order of the notification that brought each onto the page, newest first.
        let representatives = ascending ? walk.representatives.reversed() : walk.representatives
        let groups = try representatives.compactMap { item in
            try group(NotificationGroupKey(item, grouping: grouping), latest: item, of: recipient, upTo: top, from: bottom)
        }
        return NotificationGroupPage(groups: groups, cursors: (newest, oldest))
    }

    /// The group `key` of `recipient`'s shown notifications, counted whole; `nil` when it has none.
    public func group(_ key: NotificationGroupKey, of recipient: Int64) throws -> NotificationGroup? {
        guard let latest = try members(of: key, recipient: recipient, limit: 1).first else { return nil }
        return try group(key, latest: latest, of: recipient, upTo: Int64.max, from: 0)
    }

    /// The newest `limit` shown notifications of the group `key` of `recipient`'s.
    public func members(of key: NotificationGroupKey, recipient: Int64, limit: Int) throws -> [AccountNotification] {
        let (sql, arguments) = groupCondition(key, recipient: recipient, upTo: Int64.max)
        return try AccountNotification.fetchAll(db.cachedStatement(sql: "SELECT n.* FROM notifications n WHERE \(sql) ORDER BY n.id DESC LIMIT ?"),
                                                arguments: arguments + [limit])
    }

    /// Deletes every notification of `recipient`'s in the group `key`, shown or not.
    /// - Returns: How many were deleted.
    @discardableResult
    public func deleteGroup(_ key: NotificationGroupKey, of recipient: Int64) throws -> Int {
        let members = key.members
        try db.execute(cached: "DELETE FROM notifications WHERE id IN (SELECT n.id FROM notifications n WHERE n.account_id = ? AND \(members.sql))",
                       arguments: [recipient] + members.arguments)
        return db.changesCount
    }

    /// How many groups `recipient`'s shown notifications newer than `sinceId` make, counting at
    /// most `limit` (`GET /api/v2/notifications/unread_count`).
    public func countGroups(of recipient: Int64, types: [String], excluding excludedTypes: [String], from: Int64?,
                            grouping: Set<NotificationType>, sinceId: Int64?, limit: Int) throws -> Int {
        try walkGroups(of: recipient, types: types, excluding: excludedTypes, from: from, grouping: grouping,
                       page: PageBounds(sinceId: sinceId, limit: limit), groupLimit: limit).representatives.count
    }

    /// Reads notifications in the page's order, a chunk at a time, keeping the first of each
    /// group, until `groupLimit` groups, the end, or `groupScanLimit` notifications read.
    private func walkGroups(of recipient: Int64, types: [String], excluding excludedTypes: [String], from: Int64?,
                            grouping: Set<NotificationType>, page: PageBounds, groupLimit: Int) throws -> GroupWalk {
        let filter = Self.filter(viewer: recipient, types: types, excludedTypes: excludedTypes, from: from)
        var walk = GroupWalk()
        var bounds = page
        bounds.limit = min(max(groupLimit * 2, Self.groupChunkMinimum), Self.groupChunkMaximum)
        while walk.read < Self.groupScanLimit {
            let rows = try chunk(filter, bounds)
            for row in rows {
                if walk.take(row, key: NotificationGroupKey(row, grouping: grouping)) == groupLimit { return walk }
            }
            guard rows.count == bounds.limit, let last = walk.last else {
                walk.exhausted = true
                return walk
            }
            if bounds.minId != nil { bounds.minId = last } else { bounds.maxId = last }
        }
        return walk
    }

    /// The smallest and largest chunk a walk reads at once.
    static let groupChunkMinimum = 40
    static let groupChunkMaximum = 400

    /// One chunk of the walk: the notifications matching `filter` within `bounds`, in its order.
    private func chunk(_ filter: (String, StatementArguments), _ bounds: PageBounds) throws -> [AccountNotification] {
        let condition = bounds.condition("n.id")
        return try AccountNotification.fetchAll(db.cachedStatement(sql: """
            SELECT n.* FROM notifications n WHERE \(filter.0) AND \(condition.sql) ORDER BY \(bounds.order("n.id")) LIMIT ?
            """), arguments: filter.1 + StatementArguments(condition.arguments) + [bounds.limit])
    }

    /// The group `key` as the page between `lowest` and `highest` sees it.
    private func group(_ key: NotificationGroupKey, latest: AccountNotification, of recipient: Int64, upTo highest: Int64,
                       from lowest: Int64) throws -> NotificationGroup? {
        guard !key.isSingle else {
            return NotificationGroup(key: key, latest: latest, count: 1, mostRecentId: latest.id, sampleAccountIds: [latest.fromAccountId],
                                     pageMinId: latest.id, latestAt: latest.createdAt)
        }
        let (sql, arguments) = groupCondition(key, recipient: recipient, upTo: highest)
        // Counted newest first, at most `groupCountLimit`: each is checked for visibility.
        guard let totals = try Row.fetchOne(db, sql: """
            SELECT COUNT(*) AS count, MIN(CASE WHEN g.id >= ? THEN g.id END) AS page_min
            FROM (SELECT n.id FROM notifications n WHERE \(sql) ORDER BY n.id DESC LIMIT ?) g
            """, arguments: [lowest] + arguments + [Self.groupCountLimit]) else { return nil }
        let newest = try AccountNotification.fetchAll(db.cachedStatement(sql: "SELECT n.* FROM notifications n WHERE \(sql) ORDER BY n.id DESC LIMIT ?"),
                                                      arguments: arguments + [Self.groupSampleSize])
        guard let mostRecent = newest.first else { return nil }
        let count: Int = totals["count"]
        let pageMin: Int64? = totals["page_min"]
        return NotificationGroup(key: key, latest: mostRecent, count: count, mostRecentId: mostRecent.id,
                                 sampleAccountIds: newest.map(\.fromAccountId), pageMinId: pageMin ?? mostRecent.id, latestAt: mostRecent.createdAt)
    }

    /// The condition on `notifications n` for `recipient`'s shown members of `key` up to `highest`.
    private func groupCondition(_ key: NotificationGroupKey, recipient: Int64, upTo highest: Int64) -> (String, StatementArguments) {
        let members = key.members
        let visible = Self.visibilityCondition(viewer: recipient)
        return ("n.account_id = ? AND \(members.sql) AND n.id <= ? AND \(visible.sql)",
                [recipient] + members.arguments + [highest] + visible.arguments)
    }
}

/// What a walk over notifications found: the first notification of each group, in walk order,
/// and the ends of what it read.
private struct GroupWalk {
    /// The first notification read of each group.
    var representatives: [AccountNotification] = []
    /// The groups seen so far.
    var seen = Set<NotificationGroupKey>()
    /// How many notifications were read.
    var read = 0
    /// The first and the last notification read.
    var first: Int64?, last: Int64?
    /// Whether the walk reached the end of the page's range.
    var exhausted = false

    /// The newest notification read.
    var newest: Int64? { [first, last].compactMap { $0 }.max() }
    /// The oldest notification read.
    var oldest: Int64? { [first, last].compactMap { $0 }.min() }

    /// Reads `row`, of group `key`.
    /// - Returns: How many groups the walk holds now.
    mutating func take(_ row: AccountNotification, key: NotificationGroupKey) -> Int {
        read += 1
        first = first ?? row.id
        last = row.id
        if seen.insert(key).inserted { representatives.append(row) }
        return representatives.count
    }
}

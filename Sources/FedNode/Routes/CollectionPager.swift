import Activity
import Core
import Foundation
import Hummingbird
import Storage

/// Serves `OrderedCollection`s as Mastodon does: the collection with `totalItems` and a
/// `first` page link, and `OrderedCollectionPage`s with `next`/`prev` (ActivityStreams 2.0 5.3).
struct CollectionPager {
    /// Items per page.
    static let pageSize = 20
    /// The collection's id.
    let id: String
    /// The request's query (`page`, `max_id`, `min_id`).
    let query: Parameters
    /// The node's URLs (to render posts as they are now).
    let urls: NodeURLs

    private var wantsPage: Bool { query["page"] != nil }

    /// The outbox: stored Create/Announce activities of public and unlisted posts.
    func outbox(of account: Account, in db: Transaction) throws -> ASObject {
        let total = try db.deliveries.outboxCount(of: account.id)
        guard wantsPage else { return collection(total: total, first: "\(id)?page=true") }
        let maxId = IntParameter.cursor(query["max_id"].map(String.init)) ?? Int64.max
        let rows = try db.deliveries.outboxPage(of: account.id, before: maxId, limit: Self.pageSize)
        let items: [ASReference] = try rows.compactMap { row in
            guard var activity = try? ASObject.decode(from: row.payload) else { return nil }
            // A Create embeds the post as it is now, not as it was sent: edits show here too.
            if row.type == "Create", let postId = row.postId, let post = try db.posts.find(id: postId) {
                activity.object = .object(PostToAS(urls: urls).note(post, parts: try .read(post, in: db)))
            }
            return .object(Self.withoutContext(activity))
        }
        let lastId = rows.last?.id
        let next = rows.count == Self.pageSize ? lastId.map { "\(id)?page=true&max_id=\($0)" } : nil
        return page(id: "\(id)?page=true" + (maxId == .max ? "" : "&max_id=\(maxId)"), items: items, next: next)
    }

    /// Followers (or following): accepted relations' actor ids, newest first, numbered pages.
    func relations(of account: Account, followers: Bool, in db: Transaction) throws -> ASObject {
        let total = try db.follows.collectionCount(of: account.id, followers: followers)
        guard wantsPage else { return collection(total: total, first: "\(id)?page=1") }
        // 1 for `page=true` or an unreadable value; clamped to 1...Int.max - 1, so `number + 1` exists.
        let number = try IntParameter.page.value(query["page"].map(String.init))
        // Pages past the last are empty: the offset is computed only for pages that exist, so
        // no page number a client sends can overflow it.
        let lastPage = max(1, (total + Self.pageSize - 1) / Self.pageSize)
        let uris = number > lastPage ? [] : try db.follows.collectionURIs(
            of: account.id, followers: followers, limit: Self.pageSize, offset: (number - 1) * Self.pageSize)
        let next = number < lastPage ? "\(id)?page=\(number + 1)" : nil
        var result = page(id: "\(id)?page=\(number)", items: uris.map { .id($0) }, next: next)
        result.totalItems = total
        if number > 1 { result.prev = .id("\(id)?page=\(number - 1)") }
        return result
    }

    private func collection(total: Int, first: String) -> ASObject {
        ASObject(id: id, type: "OrderedCollection", context: ASContext.activityStreams, totalItems: total, first: .id(first))
    }

    private func page(id pageId: String, items: [ASReference], next: String?) -> ASObject {
        ASObject(id: pageId, type: "OrderedCollectionPage", context: ASContext.activityStreams,
                 next: next.map { .id($0) }, partOf: id, items: items)
    }

    // Embedded activities inherit the page's context (ActivityStreams 2.0 4.1 / JSON-LD).
    private static func withoutContext(_ object: ASObject) -> ASObject {
        var copy = object
        copy.context = nil
        return copy
    }
}

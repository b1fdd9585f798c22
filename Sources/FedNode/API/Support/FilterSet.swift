import Activity
import Core
import Foundation
import Storage

/// The viewer's filters that apply in one context, loaded once per page (three queries), and
/// applied to rendered statuses: each gets `filtered` (Mastodon's `FilterResult`s), and those
/// matching a `hide` filter are dropped, as Mastodon drops them server-side.
struct FilterSet {
    /// A filter with its keywords and posts.
    struct Loaded {
        var filter: ContentFilter
        var keywords: [FilterKeyword]
        var statuses: [FilterStatus]
    }

    /// The active filters; empty for anonymous viewers.
    let loaded: [Loaded]
    /// Whether the viewer is signed in (then `filtered` is always present).
    let signedIn: Bool
    /// The viewer's account id: filters never match the viewer's own posts, as in Mastodon.
    var viewerId: String? = nil

    /// The filters of `viewer` applying in `context` now.
    static func load(viewer: Account?, context: String, db: Transaction) throws -> FilterSet {
        guard let viewer else { return FilterSet(loaded: [], signedIn: false) }
        return FilterSet(loaded: try loadAll(try db.filters.active(of: viewer.id, context: context), db: db), signedIn: true,
                         viewerId: String(viewer.id))
    }

    /// `filters` with their keywords and posts (two queries).
    static func loadAll(_ filters: [ContentFilter], db: Transaction) throws -> [Loaded] {
        let ids = filters.map(\.id)
        let keywords = Dictionary(grouping: try db.filters.keywords(of: ids), by: \.filterId)
        let statuses = Dictionary(grouping: try db.filters.statuses(of: ids), by: \.filterId)
        return filters.map { Loaded(filter: $0, keywords: keywords[$0.id] ?? [], statuses: statuses[$0.id] ?? []) }
    }

    /// `statuses` with `filtered` set, those matching a `hide` filter left out. Changed in
    /// place: the callers hand over a page they rendered for this, so no status is copied.
    func apply(to statuses: consuming [APIStatus]) -> [APIStatus] {
        guard signedIn else { return statuses }
        var hidden = false
        for index in statuses.indices {
            hidden = !apply(to: &statuses[index]) || hidden
        }
        if hidden { statuses.removeAll { $0.filtered == nil } }
        return statuses
    }

    /// `notifications` with their statuses' `filtered` set; those whose status matches a
    /// `hide` filter are left out, as Mastodon leaves them out.
    func apply(to notifications: consuming [APINotification]) -> [APINotification] {
        guard signedIn else { return notifications }
        var hidden = false
        for index in notifications.indices where notifications[index].status != nil {
            hidden = !apply(to: &notifications[index].status!) || hidden
        }
        if hidden { notifications.removeAll { $0.status.map { $0.filtered == nil } ?? false } }
        return notifications
    }

    /// Sets `status`'s `filtered` (and its boosted status's) to the filters it matches.
    /// - Returns: `false`, with `filtered` `nil` (the mark the callers remove by), when a
    ///   `hide` filter matches.
    private func apply(to status: inout APIStatus) -> Bool {
        let results = self.results(for: status.reblog?.value ?? status)
        if results.contains(where: { $0.filter.filterAction == "hide" }) {
            status.filtered = nil
            return false
        }
        status.filtered = results
        if let reblog = status.reblog?.value {
            var inner = reblog
            inner.filtered = results
            status.reblog = APIStatusBox(inner)
        }
        return true
    }

    /// The filters `status` matches.
    func results(for status: APIStatus) -> [APIFilterResult] {
        guard !loaded.isEmpty, status.account.id != viewerId else { return [] }
        let text = Self.plainText(of: status)
        return loaded.compactMap { item in
            let keywords = item.keywords.filter { KeywordMatcher.matches($0.keyword, wholeWord: $0.wholeWord, in: text) }.map(\.keyword)
            let posts = item.statuses.filter { String($0.postId) == status.id }.map { String($0.postId) }
            guard !keywords.isEmpty || !posts.isEmpty else { return nil }
            return APIFilterResult(filter: Self.entity(item), keywordMatches: keywords.isEmpty ? nil : keywords,
                                   statusMatches: posts.isEmpty ? nil : posts)
        }
    }

    /// What keywords are matched against: the content's text, the content warning and the
    /// media descriptions.
    static func plainText(of status: APIStatus) -> String {
        ([HTMLSanitizer.plainText(status.content), status.spoilerText] + status.mediaAttachments.compactMap(\.description))
            .joined(separator: "\n")
    }

    /// The `Filter` entity.
    static func entity(_ item: Loaded) -> APIFilter {
        APIFilter(id: String(item.filter.id), title: item.filter.title, context: item.filter.contextList,
                  expiresAt: item.filter.expiresAt.map(Timestamps.iso8601), filterAction: item.filter.action,
                  keywords: item.keywords.map(keyword), statuses: item.statuses.map(status))
    }

    /// The `FilterKeyword` entity.
    static func keyword(_ keyword: FilterKeyword) -> APIFilterKeyword {
        APIFilterKeyword(id: String(keyword.id), keyword: keyword.keyword, wholeWord: keyword.wholeWord)
    }

    /// The `FilterStatus` entity.
    static func status(_ status: FilterStatus) -> APIFilterStatus { APIFilterStatus(id: String(status.id), statusId: String(status.postId)) }
}

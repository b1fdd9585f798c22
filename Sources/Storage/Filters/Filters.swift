import Foundation
import GRDB

// Content filters: the tables `filters`, `filter_keywords` and `filter_statuses`.

extension Transaction {
    /// Content filters, their keywords and filtered posts.
    public var filters: Filters { Filters(db: session) }
}

/// Content filters, their keywords and filtered posts.
public struct Filters { let db: SQLSession }

extension Filters {
    /// The filters of `accountId`, oldest first (expired ones included).
    public func all(of accountId: Int64) throws -> [ContentFilter] {
        // Cached: every timeline and notifications page reads them.
        try ContentFilter.fetchAll(db.cachedStatement(sql: "SELECT * FROM filters WHERE account_id = ? ORDER BY id"), arguments: [accountId])
    }

    /// The filters of `accountId` that apply in `context` at `now`.
    public func active(of accountId: Int64, context: String, now: Date = Date()) throws -> [ContentFilter] {
        try all(of: accountId).filter { $0.contextList.contains(context) && ($0.expiresAt.map { $0 > now } ?? true) }
    }

    /// The filter `id` if `accountId` owns it.
    public func find(id: Int64, owner accountId: Int64) throws -> ContentFilter? {
        try ContentFilter.filter(Column("id") == id).filter(Column("account_id") == accountId).fetchOne(db)
    }

    /// Inserts or updates a filter.
    public func save(_ filter: ContentFilter) throws { try filter.save(db) }

    /// Deletes a filter with its keywords and posts.
    public func delete(_ filter: ContentFilter) throws { _ = try filter.delete(db) }

    /// The keywords of the filters `filterIds`, oldest first.
    public func keywords(of filterIds: [Int64]) throws -> [FilterKeyword] {
        try BatchQuery.records(FilterKeyword.self, db, filterIds, sql: """
            SELECT * FROM filter_keywords WHERE filter_id IN (\(BatchQuery.ids)) ORDER BY id
            """)
    }

    /// The filtered posts of the filters `filterIds`, oldest first.
    public func statuses(of filterIds: [Int64]) throws -> [FilterStatus] {
        try BatchQuery.records(FilterStatus.self, db, filterIds, sql: """
            SELECT * FROM filter_statuses WHERE filter_id IN (\(BatchQuery.ids)) ORDER BY id
            """)
    }

    /// The keyword `id` if it belongs to a filter of `accountId`.
    public func keyword(id: Int64, owner accountId: Int64) throws -> FilterKeyword? {
        try FilterKeyword.fetchOne(db, sql: """
            SELECT k.* FROM filter_keywords k JOIN filters f ON f.id = k.filter_id WHERE k.id = ? AND f.account_id = ?
            """, arguments: [id, accountId])
    }

    /// Inserts or updates a keyword.
    public func save(_ keyword: FilterKeyword) throws { try keyword.save(db) }

    /// Deletes a keyword.
    public func delete(_ keyword: FilterKeyword) throws { _ = try keyword.delete(db) }

    /// The filtered-post row `id` if it belongs to a filter of `accountId`.
    public func status(id: Int64, owner accountId: Int64) throws -> FilterStatus? {
        try FilterStatus.fetchOne(db, sql: """
            SELECT s.* FROM filter_statuses s JOIN filters f ON f.id = s.filter_id WHERE s.id = ? AND f.account_id = ?
            """, arguments: [id, accountId])
    }

    /// Adds `postId` to `filterId`, or returns the row already there.
    public func add(post postId: Int64, to filterId: Int64) throws -> FilterStatus {
        if let existing = try FilterStatus.filter(Column("filter_id") == filterId).filter(Column("post_id") == postId).fetchOne(db) {
            return existing
        }
        let row = FilterStatus(filterId: filterId, postId: postId)
        try row.insert(db)
        return row
    }

    /// Deletes a filtered-post row.
    public func delete(_ status: FilterStatus) throws { _ = try status.delete(db) }
}

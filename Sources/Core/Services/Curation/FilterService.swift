import Foundation
import Storage

/// A person's content filters (Mastodon's v2 filters): a title, the timelines it applies to, an
/// action, an optional expiry, and the keywords and posts it matches. Private, never federated.
package struct FilterService: Sendable {
    /// The contexts Mastodon knows.
    package static let contexts: Set<String> = ["home", "notifications", "public", "thread", "account"]
    /// The actions this node applies (`blur` is newer than the clients this node targets).
    package static let actions: Set<String> = ["warn", "hide"]
    /// Keywords per filter at most, and characters per keyword.
    package static let maxKeywords = 100, maxKeywordLength = 512
    /// The longest title, in characters.
    package static let maxTitle = 256
    /// The longest expiry, in seconds: ten years.
    package static let maxExpiry = 10 * 365 * 86_400

    /// What a create or an update sets; `nil` leaves a part as it is.
    package struct Changes: Sendable {
        /// The title (required to create).
        package var title: String?
        /// The contexts it applies in, as sent (required to create).
        package var contexts: [String]?
        /// `warn` or `hide`.
        package var action: String?
        /// Seconds from now until it expires; `.some(nil)` clears the expiry.
        package var expiresIn: Int??

        /// Changes of the parts given.
        package init(title: String? = nil, contexts: [String]? = nil, action: String? = nil, expiresIn: Int?? = nil) {
            self.title = title
            self.contexts = contexts
            self.action = action
            self.expiresIn = expiresIn
        }
    }

    /// A change to one keyword of a filter, sent with a create or an update.
    package struct KeywordChange: Sendable {
        /// The keyword's id, to change or destroy an existing one.
        package var id: Int64?
        /// The text (new keywords need one), checked with `FilterService.keyword`.
        package var keyword: String?
        /// Whole words only (Mastodon's default is true).
        package var wholeWord: Bool?
        /// Remove the keyword.
        package var destroy: Bool

        /// A change of keyword `id` (a new keyword when `nil`).
        package init(id: Int64?, keyword: String?, wholeWord: Bool?, destroy: Bool) {
            self.id = id
            self.keyword = keyword
            self.wholeWord = wholeWord
            self.destroy = destroy
        }
    }

    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Creates a filter of `owner`'s with its keywords.
    /// - Throws: `NodeError.validation` for a blank title, no or unknown context, an unknown
    ///   action, an expiry out of range or too many keywords.
    package func create(_ changes: Changes, keywords: [KeywordChange], by owner: Account, now: Date = Date()) async throws(NodeError) -> ContentFilter {
        var filter = ContentFilter(accountId: owner.id, title: "", contexts: [], action: "warn", expiresAt: nil)
        try Self.apply(changes, keywords: keywords, to: &filter, creating: true, now: now)
        let created = filter
        try await node.write("filter") { db in
            try db.filters.save(created)
            try Self.applyKeywords(keywords, to: created.id, in: db)
        }
        return created
    }

    /// Changes the parts given of `owner`'s filter `id`, and its keywords.
    /// - Throws: `NodeError.notFound` for a filter that is not `owner`'s or a keyword that is
    ///   not the filter's; `.validation` as `create`.
    package func update(_ id: Int64, _ changes: Changes, keywords: [KeywordChange], by owner: Account,
                        now: Date = Date()) async throws(NodeError) -> ContentFilter {
        try await node.write("filter") { db -> ContentFilter in
            var filter = try Self.owned(try db.filters.find(id: id, owner: owner.id))
            try Self.apply(changes, keywords: keywords, to: &filter, creating: false, now: now)
            try db.filters.save(filter)
            try Self.applyKeywords(keywords, to: filter.id, in: db)
            return filter
        }
    }

    /// Deletes `owner`'s filter `id` with its keywords and posts.
    package func delete(_ id: Int64, by owner: Account) async throws(NodeError) {
        try await node.write("filter") { db in try db.filters.delete(try Self.owned(try db.filters.find(id: id, owner: owner.id))) }
    }

    /// Adds a keyword to `owner`'s filter `filterId`.
    /// - Throws: `NodeError.notFound` for a filter that is not `owner`'s; `.validation` for a
    ///   blank or over-long keyword, or a filter that has `maxKeywords` already.
    package func addKeyword(_ text: String, wholeWord: Bool, to filterId: Int64, by owner: Account) async throws(NodeError) -> FilterKeyword {
        let text = try Self.keyword(text)
        return try await node.write("filter") { db -> FilterKeyword in
            let filter = try Self.owned(try db.filters.find(id: filterId, owner: owner.id))
            guard try db.filters.keywords(of: [filter.id]).count < Self.maxKeywords else {
                throw NodeError.validation("Validation failed: Too many keywords")
            }
            let keyword = FilterKeyword(filterId: filter.id, keyword: text, wholeWord: wholeWord)
            try db.filters.save(keyword)
            return keyword
        }
    }

    /// Changes the parts given of keyword `id` of one of `owner`'s filters.
    package func updateKeyword(_ id: Int64, text: String?, wholeWord: Bool?, by owner: Account) async throws(NodeError) -> FilterKeyword {
        let text = try text.map { raw throws(NodeError) in try Self.keyword(raw) }
        return try await node.write("filter") { db -> FilterKeyword in
            var keyword = try Self.owned(try db.filters.keyword(id: id, owner: owner.id))
            if let text { keyword.keyword = text }
            if let wholeWord { keyword.wholeWord = wholeWord }
            try db.filters.save(keyword)
            return keyword
        }
    }

    /// Deletes keyword `id` of one of `owner`'s filters.
    package func deleteKeyword(_ id: Int64, by owner: Account) async throws(NodeError) {
        try await node.write("filter") { db in try db.filters.delete(try Self.owned(try db.filters.keyword(id: id, owner: owner.id))) }
    }

    /// Adds post `postId`, which `owner` must be able to see, to their filter `filterId`; adding
    /// it twice answers the same row.
    package func addStatus(_ postId: Int64, to filterId: Int64, by owner: Account) async throws(NodeError) -> FilterStatus {
        try await node.write("filter") { db -> FilterStatus in
            let filter = try Self.owned(try db.filters.find(id: filterId, owner: owner.id))
            let post = try PostVisibility.visiblePost(postId, viewer: owner, in: db)
            return try db.filters.add(post: post.id, to: filter.id)
        }
    }

    /// Deletes filtered post `id` of one of `owner`'s filters.
    package func deleteStatus(_ id: Int64, by owner: Account) async throws(NodeError) {
        try await node.write("filter") { db in try db.filters.delete(try Self.owned(try db.filters.status(id: id, owner: owner.id))) }
    }

    /// Creates a v1 filter (Mastodon's `POST /api/v1/filters`): a filter titled `phrase` with
    /// `phrase` as its one keyword; `changes` carries its contexts, action and expiry.
    /// - Returns: The filter and its keyword (whose id is the v1 filter's).
    /// - Throws: `NodeError.validation` as `create`, or for a blank phrase.
    package func createV1(phrase: String, wholeWord: Bool, _ changes: Changes, by owner: Account) async throws(NodeError)
        -> (ContentFilter, FilterKeyword) {
        let text = try Self.keyword(phrase)
        var changes = changes
        changes.title = String(text.prefix(Self.maxTitle))
        let filter = try await create(changes, keywords: [KeywordChange(id: nil, keyword: text, wholeWord: wholeWord, destroy: false)],
                                      by: owner)
        let keyword = try await node.read("filter") { db in try db.filters.keywords(of: [filter.id]).first }
        guard let keyword else { throw .notFound("Record not found") }
        return (filter, keyword)
    }

    /// Changes the v1 filter `keywordId` (Mastodon's `PUT /api/v1/filters/:id`): the keyword's
    /// text and whole-word flag, and its filter's contexts, action and expiry. As Mastodon, the
    /// filter's settings cannot change through one keyword when it has several.
    /// - Throws: `NodeError.notFound` for a keyword that is not `owner`'s; `.validation` as
    ///   `update`, or for changing the settings of a filter with several keywords.
    package func updateV1(_ keywordId: Int64, phrase: String?, wholeWord: Bool?, _ changes: Changes, by owner: Account,
                          now: Date = Date()) async throws(NodeError) -> (ContentFilter, FilterKeyword) {
        let text = try phrase.map { raw throws(NodeError) in try Self.keyword(raw) }
        return try await node.write("filter") { db -> (ContentFilter, FilterKeyword) in
            var keyword = try Self.owned(try db.filters.keyword(id: keywordId, owner: owner.id))
            var filter = try Self.owned(try db.filters.find(id: keyword.filterId, owner: owner.id))
            let before = filter
            try Self.apply(changes, keywords: [], to: &filter, creating: false, now: now)
            if filter != before {
                guard try db.filters.keywords(of: [filter.id]).count <= 1 else {
                    throw NodeError.validation("Validation failed: This filter has several keywords; change it with the v2 filters API")
                }
                try db.filters.save(filter)
            }
            if let text { keyword.keyword = text }
            if let wholeWord { keyword.wholeWord = wholeWord }
            try db.filters.save(keyword)
            return (filter, keyword)
        }
    }

    /// Deletes the v1 filter `keywordId`: the keyword, and its filter when nothing else is left in it.
    /// - Throws: `NodeError.notFound` for a keyword that is not `owner`'s.
    package func deleteV1(_ keywordId: Int64, by owner: Account) async throws(NodeError) {
        try await node.write("filter") { db in
            let keyword = try Self.owned(try db.filters.keyword(id: keywordId, owner: owner.id))
            try db.filters.delete(keyword)
            guard let filter = try db.filters.find(id: keyword.filterId, owner: owner.id) else { return }
            if try db.filters.keywords(of: [filter.id]).isEmpty, try db.filters.statuses(of: [filter.id]).isEmpty {
                try db.filters.delete(filter)
            }
        }
    }

    /// A keyword trimmed and checked.
    /// - Throws: `NodeError.validation` for a blank or over-long keyword.
    package static func keyword(_ text: String) throws(NodeError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .validation("Validation failed: Keyword can't be blank") }
        guard trimmed.count <= maxKeywordLength else { throw .validation("Validation failed: Keyword is too long") }
        return trimmed
    }

    /// Returns `value`, or Mastodon's 404 for a record that is not the caller's.
    private static func owned<T>(_ value: T?) throws(NodeError) -> T {
        guard let value else { throw .notFound("Record not found") }
        return value
    }

    /// Applies `changes`, checked in the order Mastodon reports them; a create needs a title and
    /// a context.
    private static func apply(_ changes: Changes, keywords: [KeywordChange], to filter: inout ContentFilter, creating: Bool,
                              now: Date) throws(NodeError) {
        if let raw = changes.title {
            let title = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !title.isEmpty, title.count <= maxTitle else { throw .validation("Validation failed: Title can't be blank") }
            filter.title = title
        } else if creating {
            throw .validation("Validation failed: Title can't be blank")
        }
        if changes.contexts == nil, creating { throw .validation("Validation failed: Context can't be blank") }
        if let contexts = changes.contexts {
            guard !contexts.isEmpty else { throw .validation("Validation failed: Context can't be blank") }
            guard contexts.allSatisfy(Self.contexts.contains) else { throw .validation("Validation failed: Context includes invalid values") }
            var seen = Set<String>()
            filter.contexts = contexts.filter { seen.insert($0).inserted }.joined(separator: ",")
        }
        if let action = changes.action {
            guard actions.contains(action) else { throw .validation("Validation failed: Filter action is not included in the list") }
            filter.action = action
        }
        if let expiresIn = changes.expiresIn {
            if let seconds = expiresIn, !(1...maxExpiry).contains(seconds) {
                throw .validation("Validation failed: Expires in must be a positive number of seconds")
            }
            filter.expiresAt = expiresIn.map { now.addingTimeInterval(TimeInterval($0)) }
        }
        guard keywords.count <= maxKeywords else { throw .validation("Validation failed: Too many keywords") }
        for change in keywords where change.id == nil && change.keyword == nil && !change.destroy {
            throw .validation("Validation failed: Keyword can't be blank")
        }
    }

    /// Applies `changes` to filter `filterId`'s keywords.
    /// - Throws: `NodeError.notFound` for an id that is not one of the filter's keywords.
    private static func applyKeywords(_ changes: [KeywordChange], to filterId: Int64, in db: Transaction) throws {
        let existing = Dictionary(uniqueKeysWithValues: try db.filters.keywords(of: [filterId]).map { ($0.id, $0) })
        for change in changes {
            if let id = change.id {
                guard var keyword = existing[id] else { throw NodeError.notFound("Record not found") }
                if change.destroy { try db.filters.delete(keyword); continue }
                if let text = change.keyword { keyword.keyword = text }
                if let whole = change.wholeWord { keyword.wholeWord = whole }
                try db.filters.save(keyword)
            } else if let text = change.keyword, !change.destroy {
                try db.filters.save(FilterKeyword(filterId: filterId, keyword: text, wholeWord: change.wholeWord ?? true))
            }
        }
    }
}

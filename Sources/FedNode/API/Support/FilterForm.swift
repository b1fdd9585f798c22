import Core
import Foundation
import Storage

/// The parameters of `POST`/`PUT /api/v2/filters`, validated as Mastodon validates them.
struct FilterForm {
    /// The contexts Mastodon knows.
    static let contexts: Set<String> = ["home", "notifications", "public", "thread", "account"]
    /// The actions this node applies (`blur` is newer than the clients this node targets).
    static let actions: Set<String> = ["warn", "hide"]
    /// Keywords per filter at most, and characters per keyword.
    static let maxKeywords = 100, maxKeywordLength = 512
    /// The longest `expires_in`, in seconds: ten years.
    static let maxExpiry = 10 * 365 * 86_400

    /// A `keywords_attributes[]` item.
    struct KeywordChange {
        /// The keyword's id, to change or destroy an existing one.
        var id: Int64?
        /// The text (new keywords need one).
        var keyword: String?
        /// Whole words only (Mastodon's default is true).
        var wholeWord: Bool?
        /// `_destroy`: remove the keyword.
        var destroy: Bool
    }

    let params: APIParams

    /// Applies `title`, `context[]`, `filter_action` and `expires_in` to `filter`.
    /// - Throws: `NodeError.validation` for a blank title, no or unknown context, unknown action or bad expiry.
    func apply(to filter: inout ContentFilter, creating: Bool, now: Date = Date()) throws(NodeError) {
        if let title = params.string("title")?.trimmingCharacters(in: .whitespacesAndNewlines) {
            guard !title.isEmpty, title.count <= 256 else { throw .validation("Validation failed: Title can't be blank") }
            filter.title = title
        } else if creating {
            throw .validation("Validation failed: Title can't be blank")
        }
        let context = params.strings("context").filter { !$0.isEmpty }
        if !context.isEmpty || creating {
            guard !context.isEmpty else { throw .validation("Validation failed: Context can't be blank") }
            guard context.allSatisfy(Self.contexts.contains) else { throw .validation("Validation failed: Context includes invalid values") }
            var seen = Set<String>()
            filter.contexts = context.filter { seen.insert($0).inserted }.joined(separator: ",")
        }
        if let action = params.string("filter_action"), !action.isEmpty {
            guard Self.actions.contains(action) else { throw .validation("Validation failed: Filter action is not included in the list") }
            filter.action = action
        }
        if params.string("expires_in") != nil {
            // Blank clears the expiry.
            let seconds = try params.int("expires_in", in: 1...Self.maxExpiry,
                                         invalid: "Validation failed: Expires in must be a positive number of seconds")
            filter.expiresAt = seconds.map { now.addingTimeInterval(TimeInterval($0)) }
        }
    }

    /// The `keywords_attributes[]` items.
    /// - Throws: `NodeError.validation` for a blank or overlong keyword or a malformed id.
    func keywordChanges() throws(NodeError) -> [KeywordChange] {
        let items = params.objects("keywords_attributes")
        guard items.count <= Self.maxKeywords else { throw .validation("Validation failed: Too many keywords") }
        var changes: [KeywordChange] = []
        for item in items {
            let id: Int64?
            if let raw = item["id"], !raw.isEmpty {
                guard let parsed = Int64(raw) else { throw .validation("Validation failed: Keyword id is invalid") }
                id = parsed
            } else {
                id = nil
            }
            let keyword = try item["keyword"].map { text throws(NodeError) in try Self.keyword(text) }
            let destroy = ["true", "1", "t", "yes", "on"].contains((item["_destroy"] ?? "").lowercased())
            if id == nil, keyword == nil, !destroy { throw .validation("Validation failed: Keyword can't be blank") }
            changes.append(KeywordChange(id: id, keyword: keyword, wholeWord: item["whole_word"].map(Self.flag), destroy: destroy))
        }
        return changes
    }

    /// A keyword trimmed and checked.
    static func keyword(_ text: String) throws(NodeError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .validation("Validation failed: Keyword can't be blank") }
        guard trimmed.count <= maxKeywordLength else { throw .validation("Validation failed: Keyword is too long") }
        return trimmed
    }

    /// A boolean as Rails reads it.
    static func flag(_ raw: String) -> Bool { ["true", "1", "t", "yes", "on"].contains(raw.lowercased()) }

    /// Applies `changes` to `filter`'s keywords inside `db`.
    /// - Throws: `NodeError.notFound` for an id that is not one of the filter's keywords.
    static func applyKeywords(_ changes: [KeywordChange], to filterId: Int64, db: Transaction) throws {
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

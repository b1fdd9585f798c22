import Core
import Foundation
import Storage

/// The parameters of `POST`/`PUT /api/v2/filters` as `FilterService` takes them; it checks them.
struct FilterForm {
    let params: APIParams

    /// `title`, `context[]`, `filter_action` and `expires_in`, where sent (a blank `expires_in`
    /// clears the expiry).
    /// - Throws: `NodeError.validation` for an `expires_in` that is not a number of seconds in range.
    func changes() throws(NodeError) -> FilterService.Changes {
        let contexts = params.strings("context").filter { !$0.isEmpty }
        var changes = FilterService.Changes(title: params.string("title"), contexts: contexts.isEmpty ? nil : contexts,
                                      action: params.string("filter_action").flatMap { $0.isEmpty ? nil : $0 })
        if params.string("expires_in") != nil {
            changes.expiresIn = .some(try params.int("expires_in", in: 1...FilterService.maxExpiry,
                                                     invalid: "Validation failed: Expires in must be a positive number of seconds"))
        }
        return changes
    }

    /// The settings of a v1 filter: `context[]`, `irreversible` (the `hide` action, else
    /// `warn`) and `expires_in`, where sent.
    /// - Throws: `NodeError.validation` for an `expires_in` that is not a number of seconds in range.
    func v1Changes() throws(NodeError) -> FilterService.Changes {
        var changes = try self.changes()
        changes.title = nil
        changes.action = params.bool("irreversible").map { $0 ? "hide" : "warn" }
        return changes
    }

    /// The `keywords_attributes[]` items.
    /// - Throws: `NodeError.validation` for a blank or overlong keyword or a malformed id.
    func keywordChanges() throws(NodeError) -> [FilterService.KeywordChange] {
        var changes: [FilterService.KeywordChange] = []
        for item in params.objects("keywords_attributes") {
            let id: Int64?
            if let raw = item["id"], !raw.isEmpty {
                guard let parsed = Int64(raw) else { throw .validation("Validation failed: Keyword id is invalid") }
                id = parsed
            } else {
                id = nil
            }
            let keyword = try item["keyword"].map { text throws(NodeError) in try FilterService.keyword(text) }
            let destroy = Self.flag(item["_destroy"] ?? "")
            changes.append(FilterService.KeywordChange(id: id, keyword: keyword, wholeWord: item["whole_word"].map(Self.flag), destroy: destroy))
        }
        return changes
    }

    /// A boolean as Rails reads it.
    static func flag(_ raw: String) -> Bool { ["true", "1", "t", "yes", "on"].contains(raw.lowercased()) }
}

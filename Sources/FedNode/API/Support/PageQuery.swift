import Core
import Foundation
import HTTPTypes
import Hummingbird
import Storage

/// Mastodon list pagination: `max_id`, `since_id`, `min_id` and `limit`, and the `Link`
/// header pointing at the next (older) and previous (newer) pages.
public struct PageQuery: Sendable, Equatable {
    /// Items strictly older than this id.
    public var maxId: Int64?
    /// Items strictly newer than this id (newest first).
    public var sinceId: Int64?
    /// Items strictly newer than this id, the ones just above it (oldest of the newer first).
    public var minId: Int64?
    /// Page size, clamped to 1...`maxLimit`.
    public var limit: Int

    /// Reads the parameters; unparsable ids are ignored, as Mastodon ignores them, and the limit
    /// is clamped (see `IntParameter.limit`).
    /// - Throws: `NodeError.validation` for a value a parameter's range refuses (none today).
    public init(_ params: APIParams, defaultLimit: Int = 20, maxLimit: Int = 40) throws(NodeError) {
        maxId = params.id("max_id")
        sinceId = params.id("since_id")
        minId = params.id("min_id")
        limit = try params.int(.limit(default: defaultLimit, max: maxLimit))
    }

    /// A page with explicit bounds.
    public init(maxId: Int64? = nil, sinceId: Int64? = nil, minId: Int64? = nil, limit: Int = 20) {
        self.maxId = maxId
        self.sinceId = sinceId
        self.minId = minId
        self.limit = limit
    }

    /// The bounds the Storage queries page by.
    public var bounds: PageBounds { PageBounds(maxId: maxId, sinceId: sinceId, minId: minId, limit: limit) }

    /// The `Link` header for a page whose items have `ids` (newest first), or `nil` for an empty
    /// page. Other query parameters are kept; `path` is the request path.
    public static func link(base: String, path: String, query: [(String, String)], ids: [Int64]) -> String? {
        guard let newest = ids.first, let oldest = ids.last else { return nil }
        let kept = query.filter { !["max_id", "min_id", "since_id"].contains($0.0) }
        func url(_ key: String, _ id: Int64) -> String {
            var items = URLComponents()
            items.queryItems = kept.map { URLQueryItem(name: $0.0, value: $0.1) } + [URLQueryItem(name: key, value: String(id))]
            return "\(base)\(path)?\(items.percentEncodedQuery ?? "")"
        }
        return "<\(url("max_id", oldest))>; rel=\"next\", <\(url("min_id", newest))>; rel=\"prev\""
    }

    /// `Link` header fields for a page of `request`, with ids `ids` (newest first).
    public static func headers(for request: Request, base: String, ids: [Int64]) -> HTTPFields {
        let query = request.uri.query.map(APIParams.formPairs) ?? []
        guard let link = link(base: base, path: request.uri.path, query: query, ids: ids) else { return [:] }
        return [.link: link]
    }
}

extension HTTPField.Name {
    /// `Link` (RFC 8288).
    static var link: Self { .init("Link")! }
}

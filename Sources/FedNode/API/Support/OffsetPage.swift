import Core
import Foundation
import HTTPTypes
import Hummingbird

/// `offset` and `limit` paging, as Mastodon's directory and trends use (no ids to page by).
struct OffsetPage: Sendable, Equatable {
    /// Items skipped; negative or unparsable values count as 0 (see `IntParameter.offset`).
    var offset: Int
    /// Page size, clamped to 1...the endpoint's maximum.
    var limit: Int

    /// Reads `offset` and `limit` from `params`.
    /// - Throws: `NodeError.validation` for an offset past `IntParameter.offset`'s range.
    init(_ params: APIParams, defaultLimit: Int, maxLimit: Int) throws(NodeError) {
        offset = try params.int(.offset)
        limit = try params.int(.limit(default: defaultLimit, max: maxLimit))
    }

    /// A `Link` header with `rel="next"` (and `rel="prev"` past the first page) for a page of
    /// `count` items of `request`, as Mastodon's trends answer; none when nothing more can follow.
    func headers(for request: Request, base: String, count: Int) -> HTTPFields {
        let kept = (request.uri.query.map(APIParams.formPairs) ?? []).filter { $0.0 != "offset" }
        func url(_ offset: Int) -> String {
            var items = URLComponents()
            items.queryItems = kept.map { URLQueryItem(name: $0.0, value: $0.1) } + [URLQueryItem(name: "offset", value: String(offset))]
            return "\(base)\(request.uri.path)?\(items.percentEncodedQuery ?? "")"
        }
        var links: [String] = []
        if count >= limit { links.append("<\(url(offset + count))>; rel=\"next\"") }
        if offset > 0 { links.append("<\(url(max(offset - limit, 0)))>; rel=\"prev\"") }
        return links.isEmpty ? [:] : [.link: links.joined(separator: ", ")]
    }
}

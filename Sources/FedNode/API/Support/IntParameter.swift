import Core
import Foundation

/// A numeric parameter of a request (`limit`, `offset`, `page`) and the values it may take:
/// the one way the client API, the web app and the ActivityPub collections read a number from a
/// query string or a form, so no value a client sends reaches the database or an addition
/// unbounded (SQLite refuses an OFFSET past 64 bits with "datatype mismatch", PostgreSQL's
/// bigint overflows).
///
/// A value that is absent or not an integer (`abc`, `1e99`, `1.5`) counts as `fallback`, as
/// Mastodon reads it; a value below the range is moved up to it. A value above the range is
/// moved down to it when `clampsAbove` (a page size, as Mastodon clamps `limit`), and refused
/// with a 422 otherwise: an offset past the end cannot be served by a nearer one.
struct IntParameter: Sendable, Equatable {
    /// The parameter's name in the query or form.
    let name: String
    /// The values served.
    let range: ClosedRange<Int>
    /// The value of an absent or unreadable parameter.
    let fallback: Int
    /// Whether a value above `range` is served as its upper bound (else it is refused).
    let clampsAbove: Bool

    /// A page size: `fallback` items unless asked, at most `max` (more is served as `max`).
    static func limit(default fallback: Int, max: Int) -> IntParameter {
        IntParameter(name: "limit", range: 1...max, fallback: fallback, clampsAbove: true)
    }

    /// Items skipped by offset-paged lists (the directory, trends).
    static let offset = IntParameter(name: "offset", range: 0...1_000_000, fallback: 0, clampsAbove: false)
    /// Results skipped by search: Mastodon's search never serves past its index's window of
    /// 10,000 results.
    static let searchOffset = IntParameter(name: "offset", range: 0...10_000, fallback: 0, clampsAbove: false)
    /// The page of a numbered ActivityPub collection (`?page=N`; `page=true` is the first).
    /// Pages past the last are empty, so any number is served; the bound keeps `page + 1` whole.
    static let page = IntParameter(name: "page", range: 1...(Int.max - 1), fallback: 1, clampsAbove: true)

    /// The value `raw` stands for under this rule.
    /// - Throws: `NodeError.validation` for a value above `range` when it is not clamped.
    func value(_ raw: String?) throws(NodeError) -> Int {
        guard let number = Self.integer(raw) else { return fallback }
        if number > range.upperBound, !clampsAbove {
            throw .validation("\(name) must be a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return min(max(number, range.lowerBound), range.upperBound)
    }

    /// A paging cursor (`max_id`, `since_id`, `min_id`): `nil` when absent or not an integer,
    /// as Mastodon ignores such ids; below 0 it is 0, and digits past 64 bits are the largest id.
    static func cursor(_ raw: String?) -> Int64? { integer(raw).map { Int64(max($0, 0)) } }

    /// The integer `raw` spells: optional surrounding spaces, an optional sign and ASCII digits.
    /// Digits beyond 64 bits give `Int.max` (or `Int.min`), which every range then bounds; any
    /// other text (`abc`, `1e99`, `1.5`, `0x10`, blank) is `nil`.
    static func integer(_ raw: String?) -> Int? {
        guard var text = raw?.trimmingCharacters(in: .whitespaces)[...], !text.isEmpty else { return nil }
        let negative = text.first == "-"
        if negative || text.first == "+" { text = text.dropFirst() }
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        guard let magnitude = Int(text) else { return negative ? .min : .max }
        return negative ? -magnitude : magnitude
    }
}

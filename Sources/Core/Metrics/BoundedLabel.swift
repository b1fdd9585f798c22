import Synchronization

/// Label values drawn from input that others control (remote domains), capped: the first
/// `limit` distinct values keep their own series, every later one shares `overflow`. A
/// hostile server that mints subdomains can then add at most `limit` series to the exposition.
package final class BoundedLabel: Sendable {
    /// Distinct values given their own series.
    package let limit: Int
    /// The value every value past the limit is reported as.
    package let overflow: String
    private let admitted = Mutex<Set<String>>([])

    /// Creates a cap of `limit` values.
    package init(limit: Int, overflow: String = "other") {
        self.limit = max(0, limit)
        self.overflow = overflow
    }

    /// The label value to report `value` as: itself (lowercased, limited to the characters of
    /// a host and port) while room is left or once admitted, `overflow` otherwise.
    package func value(for raw: String) -> String {
        let value = Self.clean(raw)
        return admitted.withLock { admitted in
            if admitted.contains(value) { return value }
            guard admitted.count < limit, value != overflow else { return overflow }
            admitted.insert(value)
            return value
        }
    }

    /// `raw` lowercased, with anything outside `[a-z0-9.:-[]]` replaced by `_`, at most 255 characters.
    package static func clean(_ raw: String) -> String {
        String(raw.lowercased().prefix(255).map { character -> Character in
            character.isASCII && (character.isLetter || character.isNumber || ".:-[]".contains(character)) ? character : "_"
        })
    }
}

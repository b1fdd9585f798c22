import Core

/// Searching raw bytes (multipart bodies, sanitised HTML) without going through `String`.
extension Array where Element == UInt8 {
    /// Where `needle` first occurs at or after `start`, or `nil`.
    func firstIndex(of needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, count >= needle.count, start <= count - needle.count else { return nil }
        var index = start
        while let candidate = self[index...(count - needle.count)].firstIndex(of: first) {
            if self[candidate..<(candidate + needle.count)].elementsEqual(needle) { return candidate }
            index = candidate + 1
            guard index <= count - needle.count else { return nil }
        }
        return nil
    }
}

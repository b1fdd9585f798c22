/// A strict RFC 8259 parser straight to `JSONValue`.
///
/// `JSONDecoder` into `JSONValue` has to guess each value's kind by trying types in turn and
/// catching the errors, which made inbox parsing a hundred times slower than this single pass.
/// Invalid UTF-8 inside strings is repaired to U+FFFD and `\u0000` is dropped (no database
/// keeps it whole); everything else that is not JSON fails.
struct JSONParser {
    private let bytes: [UInt8]
    private let maxDepth: Int
    private var index = 0

    /// Parses one JSON text (surrounding whitespace allowed).
    /// - Throws: `ActivityError.invalidJSON`, or `.tooDeep` past `maxDepth` nesting.
    static func parse(_ bytes: [UInt8], maxDepth: Int) throws(ActivityError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw .invalidJSON }
        return value
    }

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private mutating func value(depth: Int) throws(ActivityError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw .invalidJSON }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return .number(try number())
        }
    }

    private mutating func object(depth: Int) throws(ActivityError) -> JSONValue {
        guard depth <= maxDepth else { throw .tooDeep(limit: maxDepth) }
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if try consume(UInt8(ascii: "}")) { return .object(members) }
        repeat {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw .invalidJSON }
            let key = try string()
            skipWhitespace()
            guard try consume(UInt8(ascii: ":")) else { throw .invalidJSON }
            members[key] = try value(depth: depth)
            skipWhitespace()
        } while try consume(UInt8(ascii: ","))
        guard try consume(UInt8(ascii: "}")) else { throw .invalidJSON }
        return .object(members)
    }

    private mutating func array(depth: Int) throws(ActivityError) -> JSONValue {
        guard depth <= maxDepth else { throw .tooDeep(limit: maxDepth) }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if try consume(UInt8(ascii: "]")) { return .array(elements) }
        repeat {
            elements.append(try value(depth: depth))
            skipWhitespace()
        } while try consume(UInt8(ascii: ","))
        guard try consume(UInt8(ascii: "]")) else { throw .invalidJSON }
        return .array(elements)
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(ActivityError) -> JSONValue {
        let expected = word.utf8
        guard index + expected.count <= bytes.count,
              bytes[index..<index + expected.count].elementsEqual(expected) else { throw .invalidJSON }
        index += expected.count
        return value
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private mutating func number() throws(ActivityError) -> Double {
        let start = index
        _ = try consume(UInt8(ascii: "-"))
        guard index < bytes.count, isDigit(bytes[index]) else { throw .invalidJSON }
        if bytes[index] == UInt8(ascii: "0") { index += 1 } else { skipDigits() }
        var plainInteger = true
        if try consume(UInt8(ascii: ".")) {
            plainInteger = false
            guard skipDigits() > 0 else { throw .invalidJSON }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            plainInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw .invalidJSON }
        }
        let text = bytes[start..<index]
        if plainInteger, text.count <= 15 {
            let magnitude = text.reduce(0) { $1 == UInt8(ascii: "-") ? $0 : $0 * 10 + Int($1 - 48) }
            return Double(text.first == UInt8(ascii: "-") ? -magnitude : magnitude)
        }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { throw .invalidJSON }
        return value
    }

    private mutating func string() throws(ActivityError) -> String {
        index += 1
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            guard bytes[index] >= 0x20 else { throw .invalidJSON }
            index += 1
        }
        guard index < bytes.count else { throw .invalidJSON }
        var text = String(decoding: bytes[start..<index], as: UTF8.self)
        if bytes[index] == UInt8(ascii: "\\") { text += try escapedRemainder() }
        index += 1
        return text
    }

    /// The rest of a string from its first backslash; stops on the closing quote.
    private mutating func escapedRemainder() throws(ActivityError) -> String {
        var utf8: [UInt8] = []
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            let byte = bytes[index]
            guard byte >= 0x20 else { throw .invalidJSON }
            index += 1
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                continue
            }
            guard index < bytes.count else { throw .invalidJSON }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                // `\u0000` is dropped: SQLite would cut the text there, PostgreSQL refuses it.
                let scalar = try unicodeEscape()
                if scalar != "\u{0}" { utf8.append(contentsOf: String(scalar).utf8) }
            default: throw .invalidJSON
            }
        }
        guard index < bytes.count else { throw .invalidJSON }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// The scalar of `XXXX` after `\u`, joining a surrogate pair; a lone surrogate is U+FFFD.
    private mutating func unicodeEscape() throws(ActivityError) -> Unicode.Scalar {
        let high = try hex4()
        guard (0xD800...0xDBFF).contains(high) else { return Unicode.Scalar(high) ?? "\u{FFFD}" }
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
            return "\u{FFFD}"
        }
        index += 2
        let low = try hex4()
        guard (0xDC00...0xDFFF).contains(low) else { return "\u{FFFD}" }
        return Unicode.Scalar(0x10000 + (high - 0xD800) << 10 + (low - 0xDC00)) ?? "\u{FFFD}"
    }

    private mutating func hex4() throws(ActivityError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw .invalidJSON }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Character(UnicodeScalar(byte)).hexDigitValue else { throw .invalidJSON }
            value = value << 4 + UInt32(digit)
        }
        index += 4
        return value
    }

    private mutating func consume(_ byte: UInt8) throws(ActivityError) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

import Foundation

/// A parser for RFC 8941 dictionaries, following the algorithms of RFC 8941 section 4.2.
struct StructuredFieldParser {
    private let input: [UInt8]
    private var index = 0

    /// Prepares to parse `text` (only ASCII is valid in structured fields).
    init(_ text: String) {
        input = Array(text.utf8)
    }

    /// RFC 8941 4.2.2: members separated by commas with optional whitespace; a duplicate key
    /// replaces the earlier member's value in place.
    mutating func parseDictionary() throws(SignatureError) -> [StructuredField.Entry] {
        var entries: [StructuredField.Entry] = []
        // Where each key sits in `entries`, so a header of many members stays linear.
        var positions: [String: Int] = [:]
        skip(" ")
        while index < input.count {
            let key = try parseKey()
            let hasValue = peek == UInt8(ascii: "=")
            if hasValue { index += 1 }
            let start = index
            let member: StructuredField.Member
            if hasValue {
                member = try parseItemOrInnerList()
            } else {
                member = .item(StructuredField.Item(value: .boolean(true), parameters: try parseParameters()))
            }
            let raw = String(decoding: input[start..<index], as: UTF8.self)
            let entry = StructuredField.Entry(key: key, member: member, raw: raw)
            if let existing = positions[key] {
                entries[existing] = entry
            } else {
                positions[key] = entries.count
                entries.append(entry)
            }
            skipOWS()
            guard index < input.count else { break }
            guard input[index] == UInt8(ascii: ",") else { throw fail("expected comma") }
            index += 1
            skipOWS()
            guard index < input.count else { throw fail("trailing comma") }
        }
        return entries
    }

    /// RFC 8941 4.2 with "item" as the top-level type: an item and nothing after it.
    mutating func parseTopLevelItem() throws(SignatureError) -> StructuredField.Item {
        skip(" ")
        let item = try parseItem()
        skip(" ")
        guard index == input.count else { throw fail("trailing characters") }
        return item
    }

    private var peek: UInt8? { index < input.count ? input[index] : nil }

    private func fail(_ reason: String) -> SignatureError {
        .malformedSignatureHeader("structured field: \(reason) at \(index)")
    }

    private mutating func skip(_ character: Unicode.Scalar) {
        while peek == UInt8(ascii: character) { index += 1 }
    }

    private mutating func skipOWS() {
        while peek == UInt8(ascii: " ") || peek == UInt8(ascii: "\t") { index += 1 }
    }

    private mutating func parseItemOrInnerList() throws(SignatureError) -> StructuredField.Member {
        guard peek == UInt8(ascii: "(") else { return .item(try parseItem()) }
        index += 1
        var items: [StructuredField.Item] = []
        while true {
            skip(" ")
            guard let next = peek else { throw fail("unterminated inner list") }
            if next == UInt8(ascii: ")") {
                index += 1
                return .innerList(items, try parseParameters())
            }
            items.append(try parseItem())
            guard peek == UInt8(ascii: " ") || peek == UInt8(ascii: ")") else { throw fail("expected space or )") }
        }
    }

    private mutating func parseItem() throws(SignatureError) -> StructuredField.Item {
        StructuredField.Item(value: try parseBareItem(), parameters: try parseParameters())
    }

    /// RFC 8941 4.2.3.2: `;key` or `;key=value`, a later duplicate overriding an earlier one.
    private mutating func parseParameters() throws(SignatureError) -> StructuredField.Parameters {
        var parameters: StructuredField.Parameters = []
        var positions: [String: Int] = [:]
        while peek == UInt8(ascii: ";") {
            index += 1
            skip(" ")
            let key = try parseKey()
            var value = StructuredField.BareItem.boolean(true)
            if peek == UInt8(ascii: "=") {
                index += 1
                value = try parseBareItem()
            }
            if let existing = positions[key] {
                parameters[existing].value = value
            } else {
                positions[key] = parameters.count
                parameters.append((key, value))
            }
        }
        return parameters
    }

    /// RFC 8941 4.2.3.3: lcalpha or `*`, then lcalpha, digits, `_`, `-`, `.`, `*`.
    private mutating func parseKey() throws(SignatureError) -> String {
        guard let first = peek, isLowerAlpha(first) || first == UInt8(ascii: "*") else { throw fail("invalid key") }
        let start = index
        while let next = peek, isLowerAlpha(next) || isDigit(next) || "_-.*".utf8.contains(next) { index += 1 }
        return String(decoding: input[start..<index], as: UTF8.self)
    }

    private mutating func parseBareItem() throws(SignatureError) -> StructuredField.BareItem {
        guard let first = peek else { throw fail("missing item") }
        switch first {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "\""): return try parseString()
        case UInt8(ascii: ":"): return try parseBytes()
        case UInt8(ascii: "?"): return try parseBoolean()
        case _ where first == UInt8(ascii: "*") || isAlpha(first): return parseToken()
        default: throw fail("invalid item")
        }
    }

    /// RFC 8941 4.2.4: at most 15 integer digits, or 12.3 for decimals.
    private mutating func parseNumber() throws(SignatureError) -> StructuredField.BareItem {
        let start = index
        if peek == UInt8(ascii: "-") { index += 1 }
        while let next = peek, isDigit(next) || next == UInt8(ascii: ".") { index += 1 }
        let text = String(decoding: input[start..<index], as: UTF8.self)
        let digits = text.drop { $0 == "-" }
        if !digits.contains(".") {
            guard (1...15).contains(digits.count), let value = Int(text) else { throw fail("invalid integer") }
            return .integer(value)
        }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...12).contains(parts[0].count), (1...3).contains(parts[1].count),
            let value = Double(text)
        else { throw fail("invalid decimal") }
        return .decimal(value)
    }

    /// RFC 8941 4.2.5: printable ASCII; only `\"` and `\\` escapes.
    private mutating func parseString() throws(SignatureError) -> StructuredField.BareItem {
        index += 1
        var bytes: [UInt8] = []
        while let next = peek {
            index += 1
            switch next {
            case UInt8(ascii: "\""): return .string(String(decoding: bytes, as: UTF8.self))
            case UInt8(ascii: "\\"):
                guard let escaped = peek, escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\")
                else { throw fail("invalid escape") }
                bytes.append(escaped)
                index += 1
            case 0x20...0x7E: bytes.append(next)
            default: throw fail("invalid string character")
            }
        }
        throw fail("unterminated string")
    }

    /// RFC 8941 4.2.6: ALPHA or `*`, then tchar, `:` or `/`.
    private mutating func parseToken() -> StructuredField.BareItem {
        let start = index
        index += 1
        while let next = peek, isAlpha(next) || isDigit(next) || "!#$%&'*+-.^_`|~:/".utf8.contains(next) { index += 1 }
        return .token(String(decoding: input[start..<index], as: UTF8.self))
    }

    /// RFC 8941 4.2.7: `:` base64 `:`.
    private mutating func parseBytes() throws(SignatureError) -> StructuredField.BareItem {
        index += 1
        let start = index
        while let next = peek, next != UInt8(ascii: ":") { index += 1 }
        guard peek == UInt8(ascii: ":") else { throw fail("unterminated byte sequence") }
        let encoded = String(decoding: input[start..<index], as: UTF8.self)
        index += 1
        guard let data = Data(base64Encoded: encoded) else { throw fail("invalid base64") }
        return .bytes([UInt8](data))
    }

    /// RFC 8941 4.2.8: `?1` or `?0`.
    private mutating func parseBoolean() throws(SignatureError) -> StructuredField.BareItem {
        index += 1
        guard let next = peek, next == UInt8(ascii: "0") || next == UInt8(ascii: "1") else { throw fail("invalid boolean") }
        index += 1
        return .boolean(next == UInt8(ascii: "1"))
    }

    private func isLowerAlpha(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
    private func isAlpha(_ byte: UInt8) -> Bool { isLowerAlpha(byte | 0x20) }
    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
}

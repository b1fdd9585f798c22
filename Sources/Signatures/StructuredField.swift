import Foundation

/// The Structured Field Values of RFC 8941 that HTTP Message Signatures (RFC 9421) and
/// Digest Fields (RFC 9530) use: dictionaries of items and inner lists, with parameters.
enum StructuredField {
    /// A bare item (RFC 8941 3.3).
    enum BareItem: Equatable, Sendable {
        /// An integer of at most 15 digits.
        case integer(Int)
        /// A decimal with at most 12 integer and 3 fraction digits.
        case decimal(Double)
        /// A quoted string of printable ASCII.
        case string(String)
        /// An unquoted token, e.g. `sha-256` as a value.
        case token(String)
        /// A byte sequence, `:base64:` on the wire.
        case bytes([UInt8])
        /// A boolean, `?1` or `?0`.
        case boolean(Bool)
    }

    /// Ordered parameters (RFC 8941 3.1.2).
    typealias Parameters = [(key: String, value: BareItem)]

    /// An item with its parameters (RFC 8941 3.3).
    struct Item {
        /// The item's value.
        var value: BareItem
        /// The item's parameters, in order.
        var parameters: Parameters = []
    }

    /// A dictionary member's value: an item or an inner list (RFC 8941 3.2).
    enum Member {
        /// A single item, e.g. a `Signature` byte sequence.
        case item(Item)
        /// A parenthesized list of items with the list's own parameters, e.g. a `Signature-Input` member.
        case innerList([Item], Parameters)
    }

    /// One dictionary member, with the exact text of its value as received.
    struct Entry {
        /// The member's key, e.g. a signature label.
        var key: String
        /// The parsed value.
        var member: Member
        /// The value's text exactly as received, without the key and `=`.
        var raw: String
    }

    /// Serializes a bare item (RFC 8941 4.1.3).
    static func serialize(_ item: BareItem) -> String {
        switch item {
        case .integer(let value): return String(value)
        case .decimal(let value): return serializeDecimal(value)
        case .string(let value):
            return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .token(let value): return value
        case .bytes(let value): return ":\(Data(value).base64EncodedString()):"
        case .boolean(let value): return value ? "?1" : "?0"
        }
    }

    /// Serializes parameters (RFC 8941 4.1.1.2); a `true` boolean is written as the bare key.
    static func serialize(_ parameters: Parameters) -> String {
        parameters.map { key, value in
            value == .boolean(true) ? ";\(key)" : ";\(key)=\(serialize(value))"
        }.joined()
    }

    /// Serializes an inner list with its parameters (RFC 8941 4.1.1.1).
    static func serialize(innerList items: [Item], parameters: Parameters) -> String {
        "(" + items.map { serialize($0.value) + serialize($0.parameters) }.joined(separator: " ") + ")"
            + serialize(parameters)
    }

    private static func serializeDecimal(_ value: Double) -> String {
        let rounded = (value * 1000).rounded(.toNearestOrEven) / 1000
        var text = String(format: "%.3f", rounded)
        while text.hasSuffix("0") && !text.hasSuffix(".0") { text.removeLast() }
        return text
    }

    /// Parses a dictionary field value (RFC 8941 4.2.2).
    /// - Throws: `SignatureError.malformedSignatureHeader` naming the problem.
    static func parseDictionary(_ text: String) throws(SignatureError) -> [Entry] {
        var parser = StructuredFieldParser(text)
        return try parser.parseDictionary()
    }
}

extension StructuredField {
    /// Parses a whole field value as one item with parameters (RFC 8941 4.2, "item").
    /// - Throws: `SignatureError.malformedSignatureHeader` naming the problem.
    static func parseItem(_ text: String) throws(SignatureError) -> Item {
        var parser = StructuredFieldParser(text)
        return try parser.parseTopLevelItem()
    }
}

import Foundation

/// The Structured Field Values of RFC 8941 that HTTP Message Signatures (RFC 9421) and
/// Digest Fields (RFC 9530) use: dictionaries of items and inner lists, with parameters.
enum StructuredField {
    /// A bare item (RFC 8941 3.3).
    enum BareItem: Equatable, Sendable {
        case integer(Int)
        case decimal(Double)
        case string(String)
        case token(String)
        case bytes([UInt8])
        case boolean(Bool)
    }

    /// Ordered parameters (RFC 8941 3.1.2).
    typealias Parameters = [(key: String, value: BareItem)]

    /// An item with its parameters (RFC 8941 3.3).
    struct Item {
        var value: BareItem
        var parameters: Parameters = []
    }

    /// A dictionary member's value: an item or an inner list (RFC 8941 3.2).
    enum Member {
        case item(Item)
        case innerList([Item], Parameters)
    }

    /// One dictionary member, with the exact text of its value as received.
    struct Entry {
        var key: String
        var member: Member
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

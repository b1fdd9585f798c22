import Foundation

extension JSONValue: Codable {
    /// Decodes any JSON value from any `Decoder`. `true`/`false` stay booleans; they never
    /// become numbers. For raw bytes prefer `JSONValue.parse(_:)`, which is much faster.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value. Integral numbers are written as integers (`1920`, `0`), and
    /// non-finite numbers (which JSON cannot carry) as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try Self.encodeNumber(value, into: &container)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    private static func encodeNumber(_ value: Double, into container: inout any SingleValueEncodingContainer) throws {
        guard value.isFinite else { return try container.encodeNil() }
        // Doubles hold integers exactly up to 2^53; beyond that keep the Double form.
        if value == value.rounded(.towardZero), abs(value) <= 9_007_199_254_740_992 {
            try container.encode(Int64(value))
        } else {
            try container.encode(value)
        }
    }
}

extension JSONValue {
    /// Parses a JSON text (RFC 8259), refusing texts that nest deeper or hold more values than
    /// `limits` before parsing them (a cheap scan, see `JSONLimits.check(_:)`).
    /// - Parameters:
    ///   - data: the JSON text (UTF-8).
    ///   - limits: the deepest nesting and most values accepted.
    /// - Throws: `ActivityError.tooDeep`, `.tooManyValues` or `.invalidJSON`.
    public static func parse(_ data: Data, limits: JSONLimits = .federation) throws(ActivityError) -> JSONValue {
        let bytes = [UInt8](data)
        try limits.check(bytes)
        return try JSONParser.parse(bytes, maxDepth: limits.depth)
    }

    /// The JSON text of this value: sorted keys, slashes not escaped, integers without `.0`.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: every case maps to a JSON value.
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }
}

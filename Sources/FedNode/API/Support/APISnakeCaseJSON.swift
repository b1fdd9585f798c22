import Core
import Foundation

/// Client-API entities as JSON: what `JSONEncoder` gives with `.convertToSnakeCase` keys and
/// `.withoutEscapingSlashes` (`APIResponse.encoder()`), the same keys, values and special
/// cases (`URL` as its string, `Data` as base64, `Decimal` as a number, `[String: T]` keys
/// left as they are), written straight into bytes in the order the entity encodes its keys.
///
/// Rendering a timeline page spent about a third of the server's CPU in `JSONEncoder`, most of
/// it building an intermediate tree of dictionaries and converting every key of every entity
/// to snake case again. Here keys are converted byte by byte as they are written and nothing
/// is built in between.
///
/// Codable lets an entity hold a nested container (or a super-encoder) while it goes on
/// writing its own keys, which a single pass cannot follow. No entity does that today; one
/// that does gets `Unsupported`, and `APIResponse` then encodes it with `JSONEncoder`.
enum APISnakeCaseJSON {
    /// An entity used a Codable feature the single pass does not follow.
    struct Unsupported: Error {}

    /// `value` as JSON bytes.
    /// - Throws: `Unsupported` (see above), or `EncodingError` for a non-finite number, as
    ///   `JSONEncoder` throws it. A value that encodes nothing is `{}`, as there.
    /// - Parameter direct: `false` writes entities that write their own JSON (`APIDirectJSON`)
    ///   through their Codable encoding instead (tests compare the two).
    static func encode<T: Encodable>(_ value: T, direct: Bool = true) throws -> [UInt8] {
        let writer = JSONBytes(direct: direct)
        writer.buffer.bytes.reserveCapacity(8192)
        try writer.value(value)
        if let problem = writer.problem { throw problem }
        return writer.buffer.bytes
    }
}

// MARK: - Output

/// The output and the state of the whole encoding.
final class JSONBytes {
    /// What was written so far.
    var buffer = JSONBuffer()
    /// Why the output cannot be used (set once; the caller throws it at the end).
    var problem: (any Error)?
    /// Whether `APIDirectJSON` entities write themselves (else through Codable).
    let direct: Bool

    init(direct: Bool = true) {
        self.direct = direct
    }

    func fail(_ error: any Error) { if problem == nil { problem = error } }

    /// Writes any value: the types `JSONEncoder` treats specially, then everything else through
    /// its own `encode(to:)`.
    func value<T: Encodable>(_ value: T) throws {
        switch value {
        case let string as String: buffer.string(string)
        case let int as Int: buffer.integer(int)
        case let bool as Bool: buffer.bool(bool)
        case let double as Double: try buffer.number(double)
        case let url as URL: buffer.string(url.absoluteString)
        case let data as Data: buffer.string(data.base64EncodedString())
        case let decimal as Decimal: buffer.bytes.append(contentsOf: decimal.description.utf8)
        case let dictionary as any StringKeyedDictionary: try dictionary.writeEntries(to: self)
        case let entity as any APIDirectJSON where direct: try entity.writeJSON(to: &buffer)
        default:
            let encoder = StreamingEncoder(output: self)
            try value.encode(to: encoder)
            try encoder.finish()
        }
    }
}

/// JSON being written: a struct, so the writers that hold it `inout` pay no dynamic
/// exclusivity check per byte appended (a class property's are checked at run time).
struct JSONBuffer {
    var bytes: [UInt8] = []

    static let trueBytes = Array("true".utf8)
    static let falseBytes = Array("false".utf8)
    static let nullBytes = Array("null".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    mutating func null() { bytes.append(contentsOf: Self.nullBytes) }

    mutating func bool(_ value: Bool) { bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes) }

    mutating func integer(_ value: some BinaryInteger) { bytes.append(contentsOf: String(value).utf8) }

    /// An `Int` in decimal, without an intermediate string.
    mutating func integer(_ value: Int) {
        guard value != Int.min else { return bytes.append(contentsOf: String(value).utf8) }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// A number as `JSONEncoder` writes it: its shortest description, without a trailing `.0`.
    mutating func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// A string, quoted and escaped (quotes, backslashes and control characters; slashes and
    /// everything else as UTF-8).
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        escaped(value)
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escaped(_ value: String) {
        var value = value
        value.withUTF8 { escape($0) }
    }

    private mutating func escape(_ source: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for index in source.indices {
            let byte = source[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start..<index]))
            start = index + 1
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            default:
                let hex = Self.hexDigits
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start...]))
    }

    /// `"key":` with `key` converted to snake case.
    mutating func snakeCaseKey(_ key: String) {
        bytes.append(UInt8(ascii: "\""))
        if !SnakeCase.write(key, into: &bytes) { escaped(SnakeCase.convert(key)) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// `"key":` as it is.
    mutating func plainKey(_ key: String) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }
}

/// `[String: T]`: `JSONEncoder` writes its keys unconverted.
private protocol StringKeyedDictionary {
    func writeEntries(to output: JSONBytes) throws
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Encodable {
    fileprivate func writeEntries(to output: JSONBytes) throws {
        output.buffer.bytes.append(UInt8(ascii: "{"))
        var first = true
        for (key, value) in self {
            if !first { output.buffer.bytes.append(UInt8(ascii: ",")) }
            first = false
            output.buffer.plainKey(key)
            try output.value(value)
        }
        output.buffer.bytes.append(UInt8(ascii: "}"))
    }
}

// MARK: - Snake case

/// `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`: words start at an uppercase letter
/// that follows a lowercase one, and at the last capital of a run of capitals followed by a
/// lowercase letter (`myURLProperty` → `my_url_property`); they are joined with `_` and
/// lowercased.
enum SnakeCase {
    /// Writes `key` converted, for keys of ASCII characters (every property name).
    /// - Returns: `false`, writing nothing, for other keys.
    static func write(_ key: String, into bytes: inout [UInt8]) -> Bool {
        var key = key
        return key.withUTF8 { write($0, into: &bytes) }
    }

    private static func write(_ key: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) -> Bool {
        var hasUpper = false
        for byte in key {
            if byte >= 0x80 || byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            if isUpper(byte) { hasUpper = true }
        }
        guard hasUpper else {
            bytes.append(contentsOf: key)
            return true
        }
        for (index, word) in words(count: key.count, isUpper: { isUpper(key[$0]) }, isLower: { isLower(key[$0]) }).enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "_")) }
            for position in word { bytes.append(isUpper(key[position]) ? key[position] + 32 : key[position]) }
        }
        return true
    }

    /// `key` converted (any characters: uppercase and lowercase by Unicode category, as
    /// `CharacterSet.uppercaseLetters` and `lowercaseLetters` have them).
    static func convert(_ key: String) -> String {
        let scalars = Array(key.unicodeScalars)
        let upper: (Int) -> Bool = {
            let category = scalars[$0].properties.generalCategory
            return category == .uppercaseLetter || category == .titlecaseLetter
        }
        let lower: (Int) -> Bool = { scalars[$0].properties.generalCategory == .lowercaseLetter }
        return words(count: scalars.count, isUpper: upper, isLower: lower)
            .map { String(String.UnicodeScalarView(scalars[$0])).lowercased() }
            .joined(separator: "_")
    }

    /// The ranges of the words of a key of `count` characters.
    private static func words(count: Int, isUpper: (Int) -> Bool, isLower: (Int) -> Bool) -> [Range<Int>] {
        guard count > 0 else { return [] }
        var words: [Range<Int>] = []
        var wordStart = 0
        var searchStart = 1
        while let upper = (searchStart..<count).first(where: isUpper) {
            words.append(wordStart..<upper)
            guard let lower = (upper..<count).first(where: isLower) else {
                wordStart = upper
                searchStart = count
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
            }
            searchStart = lower + 1
        }
        words.append(wordStart..<count)
        return words
    }

    private static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
    private static func isLower(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
}

// MARK: - Encoder

/// The encoder one value writes itself through. It writes into the shared output as the value
/// asks for a container and fills it; `finish()` closes what it opened.
private final class StreamingEncoder: Encoder {
    enum State { case empty, keyed(count: Int), unkeyed(count: Int), single, finished }

    let output: JSONBytes
    var state = State.empty
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(output: JSONBytes) { self.output = output }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        switch state {
        case .empty:
            output.buffer.bytes.append(UInt8(ascii: "{"))
            state = .keyed(count: 0)
        case .keyed:
            break
        default:
            output.fail(APISnakeCaseJSON.Unsupported())
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        switch state {
        case .empty:
            output.buffer.bytes.append(UInt8(ascii: "["))
            state = .unkeyed(count: 0)
        case .unkeyed:
            break
        default:
            output.fail(APISnakeCaseJSON.Unsupported())
        }
        return UnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }

    /// Before a keyed entry: the separator, and the key.
    func beginEntry(snakeCase key: String) {
        guard case .keyed(let count) = state else { return output.fail(APISnakeCaseJSON.Unsupported()) }
        if count > 0 { output.buffer.bytes.append(UInt8(ascii: ",")) }
        state = .keyed(count: count + 1)
        output.buffer.snakeCaseKey(key)
    }

    /// Before an element: the separator.
    func beginElement() {
        guard case .unkeyed(let count) = state else { return output.fail(APISnakeCaseJSON.Unsupported()) }
        if count > 0 { output.buffer.bytes.append(UInt8(ascii: ",")) }
        state = .unkeyed(count: count + 1)
    }

    /// Before the single value (only one).
    func beginSingle() {
        guard case .empty = state else { return output.fail(APISnakeCaseJSON.Unsupported()) }
        state = .single
    }

    /// Closes the container the value opened; a value that wrote nothing is `{}`.
    func finish() throws {
        switch state {
        case .empty: output.buffer.bytes.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")])
        case .keyed: output.buffer.bytes.append(UInt8(ascii: "}"))
        case .unkeyed: output.buffer.bytes.append(UInt8(ascii: "]"))
        case .single: break
        case .finished: output.fail(APISnakeCaseJSON.Unsupported())
        }
        state = .finished
    }

    /// A nested container or a super-encoder: not followed (see `APISnakeCaseJSON`).
    func unsupported() -> StreamingEncoder {
        output.fail(APISnakeCaseJSON.Unsupported())
        return StreamingEncoder(output: JSONBytes())
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: StreamingEncoder
    var codingPath: [any CodingKey] { [] }

    private func write(_ key: Key, _ body: (inout JSONBuffer) throws -> Void) rethrows {
        encoder.beginEntry(snakeCase: key.stringValue)
        try body(&encoder.output.buffer)
    }

    mutating func encodeNil(forKey key: Key) throws { write(key) { $0.null() } }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        write(key) { $0.bool(value) }
    }
    mutating func encode(_ value: String, forKey key: Key) throws { write(key) { $0.string(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { try write(key) { try $0.number(value) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { try write(key) { try $0.number(value) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { write(key) { $0.integer(value) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { write(key) { $0.integer(value) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { write(key) { $0.integer(value) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { write(key) { $0.integer(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { write(key) { $0.integer(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { write(key) { $0.integer(value) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { write(key) { $0.integer(value) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { write(key) { $0.integer(value) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { write(key) { $0.integer(value) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { write(key) { $0.integer(value) } }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        encoder.beginEntry(snakeCase: key.stringValue)
        try encoder.output.value(value)
    }

    // `encodeIfPresent` leaves out `nil` (the protocol's own defaults do the same, through a
    // generic path): Mastodon leaves absent optionals out, `Nullable` writes `null`.
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        encoder.unsupported().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { encoder.unsupported().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder { encoder.unsupported() }

    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.unsupported() }
}

/// The containers whose values have no key (array elements, a single value): every primitive
/// is written the same way once the container has written what goes before a value.
private protocol PositionalContainer {
    var encoder: StreamingEncoder { get }
    /// Writes what goes before the next value (a separator), or records that none may come.
    func beginValue()
}

extension PositionalContainer {
    var codingPath: [any CodingKey] { [] }

    private func write(_ body: (inout JSONBuffer) throws -> Void) rethrows {
        beginValue()
        try body(&encoder.output.buffer)
    }

    mutating func encodeNil() throws { write { $0.null() } }
    mutating func encode(_ value: Bool) throws { write { $0.bool(value) } }
    mutating func encode(_ value: String) throws { write { $0.string(value) } }
    mutating func encode(_ value: Double) throws { try write { try $0.number(value) } }
    mutating func encode(_ value: Float) throws { try write { try $0.number(value) } }
    mutating func encode(_ value: Int) throws { write { $0.integer(value) } }
    mutating func encode(_ value: Int8) throws { write { $0.integer(value) } }
    mutating func encode(_ value: Int16) throws { write { $0.integer(value) } }
    mutating func encode(_ value: Int32) throws { write { $0.integer(value) } }
    mutating func encode(_ value: Int64) throws { write { $0.integer(value) } }
    mutating func encode(_ value: UInt) throws { write { $0.integer(value) } }
    mutating func encode(_ value: UInt8) throws { write { $0.integer(value) } }
    mutating func encode(_ value: UInt16) throws { write { $0.integer(value) } }
    mutating func encode(_ value: UInt32) throws { write { $0.integer(value) } }
    mutating func encode(_ value: UInt64) throws { write { $0.integer(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws {
        beginValue()
        try encoder.output.value(value)
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer, PositionalContainer {
    let encoder: StreamingEncoder
    var count: Int {
        if case .unkeyed(let count) = encoder.state { return count }
        return 0
    }

    func beginValue() { encoder.beginElement() }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        encoder.unsupported().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { encoder.unsupported().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder { encoder.unsupported() }
}

private struct SingleValueContainer: SingleValueEncodingContainer, PositionalContainer {
    let encoder: StreamingEncoder

    func beginValue() { encoder.beginSingle() }
}

import Activity
import Foundation
import Hummingbird

/// A file part of a multipart request.
public struct UploadedFile: Sendable, Equatable {
    /// The file name the client gave (never trusted for the type).
    public var filename: String?
    /// The declared content type (never trusted for the type either).
    public var contentType: String?
    /// The bytes.
    public var data: Data
}

/// The parameters of a Mastodon API request, whichever way the client sent them: query string,
/// `application/x-www-form-urlencoded`, `multipart/form-data` or JSON. Keys are kept in the
/// Rails form shape apps send (`media_ids[]`, `fields_attributes[0][name]`); JSON bodies are
/// flattened into the same shape, so every controller reads one way.
public struct APIParams: Sendable {
    /// Values by key, in the order they came.
    public private(set) var values: [String: [String]] = [:]
    /// Files by key.
    public private(set) var files: [String: UploadedFile] = [:]

    /// An empty bag.
    public init() {}

    /// Largest body read for ordinary API requests.
    public static let bodyLimit = 1024 * 1024
    /// Largest body read for uploads (16 MiB of image plus multipart framing).
    public static let uploadLimit = 17 * 1024 * 1024

    /// Reads the query string and the body of `request`. A GET's body is read only with
    /// `jsonOnGet` and when it is JSON: Mastodon.py sends some GET parameters that way
    /// (`account_familiar_followers`), and Mastodon reads them.
    /// - Parameter limit: Largest body accepted (413 beyond it).
    /// - Throws: `NodeError.payloadTooLarge`, `.badRequest` for malformed JSON or multipart.
    public static func read(_ request: Request, limit: Int = bodyLimit, jsonOnGet: Bool = false) async throws(NodeError) -> APIParams {
        var params = APIParams()
        // Parsed here rather than by `queryParameters`, which leaves keys percent-encoded
        // (`types%5B%5D`) and `+` unconverted; apps send both.
        if let query = request.uri.query { params.addForm(query) }
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        let json = contentType.hasPrefix("application/json") || contentType.contains("+json")
        guard request.method != .head, request.method != .get || (jsonOnGet && json) else { return params }
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: limit) } catch { throw .payloadTooLarge("Request body too large") }
        guard body.readableBytes > 0 else { return params }
        let data = Data(body.readableBytesView)
        if contentType.hasPrefix("multipart/form-data") {
            try params.addMultipart(data, contentType: request.headers[.contentType] ?? "")
        } else if json {
            try params.addJSON(data)
        } else {
            params.addForm(String(decoding: data, as: UTF8.self))
        }
        return params
    }

    /// Adds one value. NUL characters (`%00` in a form) are dropped from keys and values, as the
    /// JSON parser drops `\u0000`: SQLite would cut the text there and PostgreSQL refuses it.
    public mutating func add(_ key: String, _ value: String) {
        func clean(_ text: String) -> String { text.utf8.contains(0) ? text.replacingOccurrences(of: "\u{0}", with: "") : text }
        values[clean(key), default: []].append(clean(value))
    }

    /// Adds one file.
    public mutating func add(_ key: String, file: UploadedFile) { files[key] = file }

    // MARK: Reading

    /// The last value of `key` (or of `key[]`), if any.
    public func string(_ key: String) -> String? { (values[key] ?? values[key + "[]"])?.last }

    /// The value of `key` with surrounding whitespace removed; `nil` when absent or blank.
    public func nonEmpty(_ key: String) -> String? {
        string(key).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the client sent `name` with a value, as itself or as nested keys (`name[...]`),
    /// the way JSON objects and Rails forms arrive. Empty values (JSON `null`) do not count.
    public func sent(_ name: String) -> Bool {
        values.contains { key, list in
            (key == name || key.hasPrefix(name + "[")) && list.contains { !$0.isEmpty }
        } || files.keys.contains { $0 == name || $0.hasPrefix(name + "[") }
    }

    /// Refuses the first of `names` the client sent: a feature the node does not have answers
    /// 422 rather than being silently ignored.
    /// - Throws: `NodeError.validation` with `message` for that parameter.
    public func refuse(_ names: [String], _ message: (String) -> String) throws(NodeError) {
        if let name = names.first(where: sent) { throw .validation(message(name)) }
    }

    /// Every value of an array parameter: `key[]`, `key[0]`..., or repeated `key`.
    public func strings(_ key: String) -> [String] {
        if let list = values[key + "[]"] { return list }
        let indexed = values.keys.compactMap { name -> (Int, String)? in
            guard name.hasPrefix(key + "["), name.hasSuffix("]"), let index = Int(name.dropFirst(key.count + 1).dropLast()) else { return nil }
            return (index, name)
        }
        if !indexed.isEmpty { return indexed.sorted { $0.0 < $1.0 }.flatMap { values[$0.1] ?? [] } }
        return values[key] ?? []
    }

    /// A boolean as Rails reads it: true, 1, on, yes (any case); `nil` when absent.
    public func bool(_ key: String) -> Bool? {
        guard let raw = string(key)?.lowercased() else { return nil }
        return ["true", "1", "on", "yes", "t"].contains(raw)
    }

    /// An integer; `nil` when absent or not a number.
    public func int(_ key: String) -> Int? { string(key).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

    /// A 64-bit id; `nil` when absent or not a number.
    public func id(_ key: String) -> Int64? { string(key).flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) } }

    /// The ids of an array parameter (`id[]`), each once, in the order sent; values that cannot
    /// be ids are left out.
    public func ids(_ key: String) -> [Int64] {
        var seen = Set<Int64>()
        return strings(key).compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.filter { seen.insert($0).inserted }
    }

    /// The id of a record the request refers to (`in_reply_to_id`, `account_id`); `nil` when
    /// absent or blank.
    /// - Throws: `NodeError.notFound` ("Record not found", as Mastodon answers) when a value was
    ///   sent that cannot be an id: such a request names no record, and is not the same request
    ///   without it.
    public func recordId(_ key: String) throws(NodeError) -> Int64? {
        guard let raw = nonEmpty(key) else {
            if sent(key) { throw .notFound("Record not found") }
            return nil
        }
        guard let id = Int64(raw) else { throw .notFound("Record not found") }
        return id
    }

    /// The uploaded file under `key`.
    public func file(_ key: String) -> UploadedFile? { files[key] }

    /// Nested objects such as `fields_attributes[0][name]` (also `fields_attributes[][name]`
    /// repeated, as some apps send), in index order, each as `[subkey: value]`.
    public func objects(_ key: String) -> [[String: String]] {
        var byIndex: [Int: [String: String]] = [:]
        var appended: [[String: String]] = []
        for (name, list) in values where name.hasPrefix(key + "[") {
            let parts = Self.bracketParts(of: name.dropFirst(key.count))
            guard parts.count == 2, let value = list.last else { continue }
            if let index = Int(parts[0]) {
                byIndex[index, default: [:]][parts[1]] = value
            } else if parts[0].isEmpty {
                for (offset, item) in list.enumerated() {
                    while appended.count <= offset { appended.append([:]) }
                    appended[offset][parts[1]] = item
                }
            }
        }
        return byIndex.keys.sorted().compactMap { byIndex[$0] } + appended
    }

    /// `[a][b]` → `["a", "b"]`.
    private static func bracketParts(of suffix: Substring) -> [String] {
        var parts: [String] = []
        var rest = suffix
        while rest.first == "[", let close = rest.firstIndex(of: "]") {
            parts.append(String(rest[rest.index(after: rest.startIndex)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return rest.isEmpty ? parts : []
    }

    // MARK: Body formats

    /// `application/x-www-form-urlencoded` (HTML 4.01 17.13.4: `+` is a space).
    mutating func addForm(_ body: String) {
        for (key, value) in Self.formPairs(body) { add(key, value) }
    }

    /// The decoded key-value pairs of a query string or form body, in order.
    static func formPairs(_ text: String) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).compactMap { pair in
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = formDecode(halves[0])
            return key.isEmpty ? nil : (key, halves.count > 1 ? formDecode(halves[1]) : "")
        }
    }

    /// One form-encoded key or value: `+` is a space and `%XX` a byte. Text with a malformed
    /// escape, or whose bytes are not UTF-8, is kept as sent (with `+` as spaces), as Foundation's
    /// `removingPercentEncoding` mostly leaves it (it turns some lone bytes, such as `%A9`, into
    /// U+FFFD and not others). Byte by byte, without bridging to `NSString`: every list page
    /// reads its query twice (the parameters and its `Link` header).
    static func formDecode(_ text: Substring) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        var wellFormed = true
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                let low = high == utf8.endIndex ? high : utf8.index(after: high)
                guard low != utf8.endIndex, let h = hexValue(utf8[high]), let l = hexValue(utf8[low]) else { wellFormed = false; break }
                bytes.append(h << 4 | l)
                index = low
            } else {
                bytes.append(byte)
            }
            index = utf8.index(after: index)
        }
        if wellFormed, let decoded = String(validating: bytes, as: UTF8.self) { return decoded }
        return String(decoding: utf8.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A JSON object body, flattened into form keys: arrays become `key[]`, objects inside arrays
    /// `key[i][sub]`, nested objects `key[sub]`.
    mutating func addJSON(_ data: Data) throws(NodeError) {
        // Nesting is bounded before parsing, as for inbox bodies: a megabyte of `[` must cost a
        // scan, not a recursion per byte.
        guard JSONLimits.depth(of: Array(data)) <= JSONLimits.maxDepth else { throw .badRequest("JSON nested too deeply") }
        let value: JSONValue
        do { value = try JSONDecoder().decode(JSONValue.self, from: data) } catch {
            throw .badRequest("Invalid JSON in request body")
        }
        guard case .object(let dictionary) = value else { throw .badRequest("Request body must be a JSON object") }
        for (key, item) in dictionary { flatten(item, as: key) }
    }

    private mutating func flatten(_ value: JSONValue, as key: String) {
        switch value {
        case .array(let array):
            for (index, item) in array.enumerated() {
                if case .object = item { flatten(item, as: "\(key)[\(index)]") } else { flatten(item, as: key + "[]") }
            }
        case .object(let object):
            for (sub, item) in object { flatten(item, as: "\(key)[\(sub)]") }
        case .null: add(key, "")
        case .bool(let flag): add(key, flag ? "true" : "false")
        case .number(let number): add(key, value.intValue.map(String.init) ?? String(number))
        case .string(let string): add(key, string)
        }
    }

    /// `multipart/form-data` (RFC 7578).
    mutating func addMultipart(_ data: Data, contentType: String) throws(NodeError) {
        guard let boundary = MultipartParser.boundary(in: contentType) else { throw .badRequest("Missing multipart boundary") }
        for part in try MultipartParser.parts(of: data, boundary: boundary) {
            if part.filename != nil {
                add(part.name, file: UploadedFile(filename: part.filename, contentType: part.contentType, data: part.body))
            } else {
                add(part.name, String(decoding: part.body, as: UTF8.self))
            }
        }
    }
}

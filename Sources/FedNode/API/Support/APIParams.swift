import Core
import Foundation

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

    /// Adds one value. NUL characters (`%00` in a form) are dropped from keys and values, as the
    /// JSON parser drops `\u0000`: SQLite would cut the text there and PostgreSQL refuses it.
    public mutating func add(_ key: String, _ value: String) {
        // By scalar, not by `replacingOccurrences`, which compares characters: a NUL followed by a
        // combining mark is one character with it, and was kept.
        func clean(_ text: String) -> String {
            text.utf8.contains(0) ? String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\u{0}" })) : text
        }
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
}

import Activity
import Core
import Foundation

/// The body formats of client requests, each read into the same flat keys.
extension APIParams {
    /// Most values one form body, query string or JSON body may carry: as many as the JSON
    /// limits allow, far more than any Mastodon request sends.
    static let maxValues = JSONLimits.clientRequest.values

    /// `application/x-www-form-urlencoded` (HTML 4.01 17.13.4: `+` is a space).
    /// - Throws: `NodeError.badRequest` for more than `maxValues` pairs, counted before any is decoded.
    mutating func addForm(_ body: String) throws(NodeError) {
        var separators = 0
        for byte in body.utf8 where byte == UInt8(ascii: "&") {
            separators += 1
            if separators >= Self.maxValues { throw .badRequest("Too many parameters (at most \(Self.maxValues))") }
        }
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
                guard low != utf8.endIndex, let h = HexDigit.value(of: utf8[high]), let l = HexDigit.value(of: utf8[low]) else { wellFormed = false; break }
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


    /// A JSON object body, flattened into form keys: arrays become `key[]`, objects inside arrays
    /// `key[i][sub]`, nested objects `key[sub]`.
    /// - Throws: `NodeError.badRequest` for invalid JSON, a top level that is not an object, or a
    ///   body past `JSONLimits.clientRequest`, which one scan checks before anything is parsed.
    mutating func addJSON(_ data: Data) throws(NodeError) {
        let value: JSONValue
        do { value = try JSONValue.parse(data, limits: .clientRequest) } catch {
            throw .refusedJSON(error, invalid: "Invalid JSON in request body")
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

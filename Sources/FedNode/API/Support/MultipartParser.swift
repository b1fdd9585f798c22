import Core
import Foundation

/// Splits a `multipart/form-data` body (RFC 7578, RFC 2046 5.1) into its parts.
enum MultipartParser {
    /// One part: its form name, optional file name and type, and bytes.
    struct Part {
        /// `name` from `Content-Disposition`.
        var name: String
        /// `filename` from `Content-Disposition`, for file parts.
        var filename: String?
        /// The part's `Content-Type`.
        var contentType: String?
        /// The part's bytes.
        var body: Data
    }

    /// Most parts accepted in one request.
    static let maxParts = 100

    /// The `boundary` parameter of a multipart content type.
    static func boundary(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.isEmpty || value.count > 200 ? nil : value
        }
        return nil
    }

    /// The parts of `data` delimited by `boundary`.
    /// - Throws: `NodeError.badRequest` when the body is not well-formed multipart or has more
    ///   than `maxParts` parts.
    static func parts(of data: Data, boundary: String) throws(NodeError) -> [Part] {
        let bytes = [UInt8](data)
        let delimiter = Array("--\(boundary)".utf8)
        guard var cursor = bytes.firstIndex(of: delimiter, from: 0) else { throw .badRequest("Malformed multipart body") }
        var parts: [Part] = []
        let separator = Array("\r\n--\(boundary)".utf8)
        while true {
            cursor += delimiter.count
            // "--" after a delimiter closes the body (RFC 2046 5.1.1).
            if bytes.count >= cursor + 2, bytes[cursor] == 0x2D, bytes[cursor + 1] == 0x2D { return parts }
            guard let headerStart = skipLine(bytes, from: cursor),
                let headerEnd = bytes.firstIndex(of: Array("\r\n\r\n".utf8), from: headerStart),
                let next = bytes.firstIndex(of: separator, from: headerEnd + 4)
            else { throw .badRequest("Malformed multipart body") }
            // Refused at the first part past the limit: a body of a hundred thousand tiny parts
            // costs a hundred parts' work.
            guard parts.count < maxParts else { throw .badRequest("Too many parts in multipart body (at most \(maxParts))") }
            let headers = String(decoding: bytes[headerStart..<headerEnd], as: UTF8.self)
            guard var part = part(headers: headers) else { throw .badRequest("Malformed multipart part") }
            part.body = Data(bytes[(headerEnd + 4)..<next])
            parts.append(part)
            cursor = next + 2
        }
    }

    private static func part(headers: String) -> Part? {
        var name: String?
        var filename: String?
        var contentType: String?
        for line in headers.components(separatedBy: "\r\n") {
            let pair = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            switch pair[0].lowercased() {
            case "content-disposition":
                name = parameter("name", in: pair[1])
                filename = parameter("filename", in: pair[1])
            case "content-type":
                contentType = pair[1]
            default:
                continue
            }
        }
        guard let name else { return nil }
        return Part(name: name, filename: filename, contentType: contentType, body: Data())
    }

    /// A (possibly quoted) parameter of a header value.
    private static func parameter(_ key: String, in value: String) -> String? {
        for item in value.split(separator: ";").dropFirst() {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == key else { continue }
            var text = pair[1]
            if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
            return text.replacingOccurrences(of: "\\\"", with: "\"")
        }
        return nil
    }

    private static func skipLine(_ bytes: [UInt8], from index: Int) -> Int? {
        var i = index
        // Transport padding (spaces) may follow the delimiter before its CRLF.
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        guard i + 1 < bytes.count, bytes[i] == 0x0D, bytes[i + 1] == 0x0A else { return nil }
        return i + 2
    }
}

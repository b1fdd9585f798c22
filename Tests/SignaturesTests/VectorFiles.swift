import Foundation
import Signatures

/// Reads the published test vectors in `shared/vectors`, found by walking up from this file
/// (through the symlinked scratch package too) to the directory that holds `shared/`.
enum VectorFiles {
    struct NotFound: Error {
        var path: String
    }

    static let root: URL? = {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for start in [directory.resolvingSymlinksInPath(), directory] {
            var candidate = start
            while candidate.path != "/" {
                let vectors = candidate.appendingPathComponent("shared/vectors")
                if FileManager.default.fileExists(atPath: vectors.path) { return vectors }
                candidate.deleteLastPathComponent()
            }
        }
        return nil
    }()

    /// The raw bytes of `relative` under `shared/vectors`.
    static func bytes(_ relative: String) throws -> [UInt8] {
        guard let url = root?.appendingPathComponent(relative), let data = FileManager.default.contents(atPath: url.path) else {
            throw NotFound(path: relative)
        }
        return [UInt8](data)
    }

    /// The file as UTF-8 text, unchanged.
    static func text(_ relative: String) throws -> String {
        String(decoding: try bytes(relative), as: UTF8.self)
    }

    /// A top-level JSON object.
    static func json(_ relative: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(try bytes(relative)))
        guard let dictionary = object as? [String: Any] else { throw NotFound(path: relative) }
        return dictionary
    }

    /// Parses an HTTP/1.1 request message with CRLF line endings into a request; the
    /// authority is the `Host` value, the scheme `https` (as in both drafts' examples).
    static func request(_ relative: String) throws -> SignableRequest {
        let raw = try bytes(relative)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        let split = (0...(raw.count - separator.count)).first { Array(raw[$0..<($0 + 4)]) == separator } ?? raw.count
        let head = String(decoding: raw[..<split], as: UTF8.self).components(separatedBy: "\r\n")
        let body = split + 4 < raw.count ? Array(raw[(split + 4)...]) : nil
        let requestLine = head[0].split(separator: " ")
        let headers = head.dropFirst().map { line -> (name: String, value: String) in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let host = headers.first { $0.name.lowercased() == "host" }?.value ?? ""
        return SignableRequest(
            method: String(requestLine[0]), path: String(requestLine[1]), authority: host, headers: headers, body: body)
    }
}

extension String {
    /// The UTF-8 bytes, for signing and digests.
    var bytes: [UInt8] { Array(utf8) }
}

/// Decodes standard base64, failing the calling test when it is invalid.
func base64(_ text: String) throws -> [UInt8] {
    guard let data = Data(base64Encoded: text) else { throw VectorFiles.NotFound(path: "base64 \(text)") }
    return [UInt8](data)
}

/// Lower-case hex, for comparing digests with published values.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
}

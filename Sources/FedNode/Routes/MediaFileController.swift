import Core
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /media/**`: serves stored files from `<dataDirectory>/media` (uploads, and the avatars
/// and headers under `media/profile/`), streamed, cacheable forever (names change when bytes
/// do), with conditional (`If-None-Match`) and single-range (`Range`) requests.
struct MediaFileController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("media/**", use: file)
    }

    /// One stored file: 200, 206 for a satisfiable single range, 304 when the client's copy
    /// is current, 416 for a range past the end, 404 for anything that is not a file inside
    /// the media directory (including `..` and absolute paths).
    @Sendable func file(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let components = context.parameters.getCatchAll().map { String($0).removingPercentEncoding ?? "" }
        guard let path = node.uploadStore.file(at: components),
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.intValue
        else { throw NodeError.notFound("Record not found") }
        var headers: HTTPFields = [
            .contentType: MediaTypes.guess(fromPath: path) ?? "application/octet-stream",
            .eTag: Self.entityTag(path: path, size: size, modified: attributes[.modificationDate] as? Date),
            .cacheControl: "public, max-age=31536000, immutable",
            .acceptRanges: "bytes",
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        ]
        if let candidates = request.headers[.ifNoneMatch], Self.matches(candidates, headers[.eTag]!) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        let fileIO = FileIO()
        switch ByteRange.parse(request.headers[.range], size: size) {
        case .none:
            return Response(status: .ok, headers: headers, body: try await fileIO.loadFile(path: path, context: context))
        case .unsatisfiable:
            return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(size)"])
        case .range(let range):
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            return Response(status: .partialContent, headers: headers,
                            body: try await fileIO.loadFile(path: path, range: range, context: context))
        }
    }

    /// The file's strong validator: the content hash its name carries, or else its size and
    /// modification time.
    static func entityTag(path: String, size: Int, modified: Date?) -> String {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        if stem.count == 64, stem.allSatisfy(\.isHexDigit) { return "\"\(stem)\"" }
        return "\"\(String(size, radix: 16))-\(String(Int(modified?.timeIntervalSince1970 ?? 0), radix: 16))\""
    }

    /// RFC 9110 13.1.2: `*` or any listed tag matches (weak comparison).
    static func matches(_ header: String, _ tag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || (trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed) == tag
        }
    }
}

/// A `Range: bytes=` request header (RFC 9110 14.1.2) resolved against a file's size. Only
/// single ranges are honoured; several ranges, other units or malformed ones serve the whole file.
enum ByteRange: Equatable {
    /// Serve the whole file.
    case none
    /// Serve these bytes (206).
    case range(ClosedRange<Int>)
    /// No byte of the range exists (416).
    case unsatisfiable

    /// Resolves `header` for a file of `size` bytes.
    static func parse(_ header: String?, size: Int) -> ByteRange {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .none }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let halves = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { return .none }
        let (first, last) = (halves[0].trimmingCharacters(in: .whitespaces), halves[1].trimmingCharacters(in: .whitespaces))
        if first.isEmpty {
            // Suffix range: the last N bytes.
            guard let count = Int(last) else { return .none }
            guard count > 0, size > 0 else { return .unsatisfiable }
            return .range(max(0, size - count)...(size - 1))
        }
        guard let start = Int(first), start >= 0 else { return .none }
        let end: Int
        if last.isEmpty { end = size - 1 } else {
            guard let parsed = Int(last), parsed >= start else { return .none }
            end = min(parsed, size - 1)
        }
        return start < size ? .range(start...end) : .unsatisfiable
    }
}

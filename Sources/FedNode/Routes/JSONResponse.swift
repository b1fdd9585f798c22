import Core
import Foundation
import Hummingbird

/// Builds responses whose bodies are already-encoded bytes with an explicit content type.
enum JSONResponse {
    /// `application/json; charset=utf-8`.
    static let json = "application/json; charset=utf-8"
    /// ActivityPub documents.
    static let activity = "application/activity+json; charset=utf-8"

    /// A response carrying `data` as `contentType`.
    static func bytes(_ data: some Sequence<UInt8>, contentType: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = contentType
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A response carrying `value` encoded as JSON (snake_case keys are the caller's business).
    static func encode(_ value: some Encodable, contentType: String = json, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Encoding our own value types cannot fail; an empty object is the safe fallback.
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return bytes(data, contentType: contentType, status: status, headers: headers)
    }

    /// The Mastodon error shape, `{"error": "..."}`.
    static func error(status: HTTPResponse.Status, message: String) -> Response {
        encode(["error": message], status: status)
    }

    /// An HTML page.
    static func html(_ page: String, status: HTTPResponse.Status = .ok) -> Response {
        bytes(Data(page.utf8), contentType: "text/html; charset=utf-8", status: status, headers: [.vary: "Accept"])
    }
}

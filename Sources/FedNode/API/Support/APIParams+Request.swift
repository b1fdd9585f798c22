import Core
import Foundation
import Hummingbird

extension APIParams {
    /// Largest body read for ordinary requests, and for any body that is not multipart.
    public static let bodyLimit = 1024 * 1024
    /// Largest multipart body read for uploads (16 MiB of image plus multipart framing).
    public static let uploadLimit = 17 * 1024 * 1024

    /// Reads the query string and the body of `request`. A GET's body is read only with
    /// `jsonOnGet` and when it is JSON: Mastodon.py sends some GET parameters that way
    /// (`account_familiar_followers`), and Mastodon reads them.
    /// - Parameters:
    ///   - limit: Largest body accepted that is not multipart, or is where no file is expected.
    ///   - fileLimit: For endpoints that take a file: largest `multipart/form-data` body accepted.
    ///     Files come only as multipart, so a JSON or form body is held to `limit` all the same.
    /// - Throws: `NodeError.payloadTooLarge` (413) past the limit, `.badRequest` for malformed
    ///   JSON or multipart, or a body past the element limits of its format.
    public static func read(_ request: Request, limit: Int = bodyLimit, fileLimit: Int? = nil,
                            jsonOnGet: Bool = false) async throws(NodeError) -> APIParams {
        var params = APIParams()
        // Parsed here rather than by `queryParameters`, which leaves keys percent-encoded
        // (`types%5B%5D`) and `+` unconverted; apps send both.
        if let query = request.uri.query { try params.addForm(query) }
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        let json = contentType.hasPrefix("application/json") || contentType.contains("+json")
        guard request.method != .head, request.method != .get || (jsonOnGet && json) else { return params }
        let body: ByteBuffer
        let maxBytes = maxBodyBytes(contentType: contentType, limit: limit, fileLimit: fileLimit)
        do { body = try await request.body.collect(upTo: maxBytes) } catch { throw .payloadTooLarge("Request body too large") }
        guard body.readableBytes > 0 else { return params }
        let data = Data(body.readableBytesView)
        if contentType.hasPrefix("multipart/form-data") {
            try params.addMultipart(data, contentType: request.headers[.contentType] ?? "")
        } else if json {
            try params.addJSON(data)
        } else {
            try params.addForm(String(decoding: data, as: UTF8.self))
        }
        return params
    }

    /// The one rule for how large a body may be: `fileLimit` for a multipart body where the
    /// endpoint takes a file, `limit` for everything else (a megabyte of JSON is already far past
    /// any real request, and parsing it costs what a file upload does not).
    /// - Parameter contentType: the request's `Content-Type`, lowercased.
    static func maxBodyBytes(contentType: String, limit: Int, fileLimit: Int?) -> Int {
        guard let fileLimit, contentType.hasPrefix("multipart/form-data") else { return limit }
        return fileLimit
    }
}

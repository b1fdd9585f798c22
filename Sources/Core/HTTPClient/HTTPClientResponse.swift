/// The final response to an `HTTPClientRequest`, after any redirects were followed.
public struct HTTPClientResponse: Sendable {
    /// The HTTP status code of the final response.
    public var status: Int
    /// The headers of the final response, in the order received (names as the server sent them;
    /// HTTP/2 sends them in lowercase).
    public var headers: [(name: String, value: String)]
    /// The body of the final response, already decoded if it was sent gzip- or deflate-encoded.
    public var body: [UInt8]
    /// The effective URL: the one the final response came from.
    public var url: String

    /// Creates a response.
    /// - Parameters:
    ///   - status: The HTTP status code.
    ///   - headers: The response headers, in order.
    ///   - body: The decoded body.
    ///   - url: The URL the response came from.
    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8], url: String) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The value of the first header with the given name, compared case-insensitively.
    /// - Parameter name: The header name, such as `"Content-Type"`.
    /// - Returns: The header's value, or `nil` when the response has no such header.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// The values of every header with the given name, compared case-insensitively, in order.
    /// - Parameter name: The header name, such as `"Link"`.
    /// - Returns: The values; empty when the response has no such header.
    public func headers(named name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }
}

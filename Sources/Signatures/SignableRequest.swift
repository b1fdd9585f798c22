/// An HTTP request as signatures see it: the request line, the header fields in order, the body.
public struct SignableRequest: Sendable {
    /// The method as sent, for example `POST`.
    public var method: String
    /// The request target as sent on the request line: path plus `?query`, e.g. `/foo?param=value&pet=dog`.
    public var path: String
    /// The `Host` value, `host[:port]`; used when the request has no `Host` field line of its own.
    public var authority: String
    /// `https` or `http`, for RFC 9421 `@scheme` and `@target-uri`.
    public var scheme: String
    /// The header field lines in order; names compare case-insensitively.
    public var headers: [(name: String, value: String)]
    /// The body bytes, or `nil` when the request has none.
    public var body: [UInt8]?

    /// Creates a request.
    /// - Parameters:
    ///   - method: the method, e.g. `GET`.
    ///   - path: path and query as on the request line.
    ///   - authority: the `Host` value.
    ///   - scheme: `https` (default) or `http`.
    ///   - headers: field lines in order.
    ///   - body: the body, if any.
    public init(
        method: String, path: String, authority: String, scheme: String = "https",
        headers: [(name: String, value: String)] = [], body: [UInt8]? = nil
    ) {
        self.method = method
        self.path = path
        self.authority = authority
        self.scheme = scheme
        self.headers = headers
        self.body = body
    }

    /// The combined value of every field line named `name` (case-insensitive), each trimmed of
    /// surrounding whitespace and joined with `", "` (draft-cavage-12 2.3, RFC 9421 2.1);
    /// `nil` when there is none.
    public func header(_ name: String) -> String? {
        let values = headers.filter { $0.name.lowercased() == name.lowercased() }
            .map { $0.value.trimmingHTTPWhitespace() }
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// Replaces every field line named `name` with one line carrying `value`, appended at the end.
    public mutating func setHeader(_ name: String, _ value: String) {
        removeHeader(name)
        headers.append((name: name, value: value))
    }

    /// Removes every field line named `name` (case-insensitive).
    public mutating func removeHeader(_ name: String) {
        headers.removeAll { $0.name.lowercased() == name.lowercased() }
    }

    /// The `Host` value: the field line if present, else `authority`.
    var host: String { header("host") ?? authority }

    /// `path` without its query (RFC 9421 2.2.6: an empty path is `/`).
    var pathOnly: String {
        let end = path.firstIndex(of: "?") ?? path.endIndex
        return path[..<end].isEmpty ? "/" : String(path[..<end])
    }

    /// The query without its `?`, or `nil` when the request target has none.
    var query: String? {
        path.firstIndex(of: "?").map { String(path[path.index(after: $0)...]) }
    }
}

extension StringProtocol {
    /// Drops leading and trailing spaces and tabs (RFC 9110 5.5 OWS).
    public func trimmingHTTPWhitespace() -> String {
        let isOWS: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isOWS($0) }), let last = lastIndex(where: { !isOWS($0) })
        else { return "" }
        return String(self[start...last])
    }
}

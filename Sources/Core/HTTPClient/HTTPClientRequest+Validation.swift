extension HTTPClientRequest {
    /// Checks what libcurl would not: an `http`/`https` URL without spaces or control characters,
    /// a method and header names that are HTTP tokens, header values without CR, LF or NUL
    /// (which would let a value smuggle in extra headers).
    /// - Throws: `.invalidURL` for the URL, `.transport` for the method or a header.
    package func validate() throws(HTTPClientError) {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"),
            !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7f })
        else { throw .invalidURL(url) }
        guard Self.isToken(method) else { throw .transport("invalid request method \(method)") }
        for (name, value) in headers {
            guard Self.isToken(name) else { throw .transport("invalid request header name \(name)") }
            guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
            else { throw .transport("invalid value for request header \(name)") }
        }
    }

    /// Whether `text` is an HTTP token (RFC 9110 5.6.2): one or more tchar.
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
        }
    }
}

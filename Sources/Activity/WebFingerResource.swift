/// The `resource` of a WebFinger query (RFC 7033 4.1): an account or a URL.
public enum WebFingerResource: Sendable, Equatable {
    /// `acct:NAME@DOMAIN` (RFC 7565); the domain is lowercased and may carry a port.
    case account(username: String, domain: String)
    /// An http or https URL, as given.
    case url(String)

    /// Parses "acct:NAME@DOMAIN", "NAME@DOMAIN", "@NAME@DOMAIN" and http(s) URLs; domain may
    /// carry a port ("127.0.0.1:8081"); throws ActivityError.malformedResource for anything
    /// else (empty, spaces, missing parts, other schemes, control chars). Domain lowercased.
    public init(parsing text: String) throws(ActivityError) {
        let scalars = text.unicodeScalars
        guard !text.isEmpty, !scalars.contains(where: Self.isForbidden) else { throw .malformedResource(text) }
        let lowered = text.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            guard Self.isURL(text) else { throw .malformedResource(text) }
            self = .url(text)
            return
        }
        // Prefixes are compared and dropped scalar by scalar: "acct:" or "@" followed by a
        // combining mark is one Character, and the `uri` of such an account did not parse.
        var account = Substring(text)
        if lowered.unicodeScalars.starts(with: "acct:".unicodeScalars) { account = Substring(account.unicodeScalars.dropFirst(5)) }
        if account.unicodeScalars.first == "@" { account = Substring(account.unicodeScalars.dropFirst()) }
        let parts = account.split(separator: "@", omittingEmptySubsequences: false)
        // The domain is checked as it is kept, lowercased: "İ" is a letter, but its lowercase
        // is "i" and a combining dot, which no host label may hold.
        guard parts.count == 2, Self.isUsername(parts[0]) else { throw .malformedResource(text) }
        let domain = parts[1].lowercased()
        guard Self.isAuthority(Substring(domain)) else { throw .malformedResource(text) }
        self = .account(username: String(parts[0]), domain: domain)
    }

    /// The resource as a URI: `acct:NAME@DOMAIN` or the URL.
    public var uri: String {
        switch self {
        case .account(let username, let domain): return "acct:\(username)@\(domain)"
        case .url(let url): return url
        }
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Letters, digits and `_ - . ~` (the unreserved set of RFC 3986 that usernames use).
    private static func isUsername(_ name: Substring) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_-.~".unicodeScalars.contains(scalar)
        }
    }

    /// `host[:port]` where host is a DNS name, an IPv4 address, or a bracketed IPv6 address.
    static func isAuthority(_ authority: Substring) -> Bool {
        var host = authority
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            let port = authority[authority.index(after: colon)...]
            guard let number = Int(port), port.count <= 5, (1...65_535).contains(number) else { return false }
            host = authority[..<colon]
        }
        if host.hasPrefix("[") {
            return host.count > 2 && host.hasSuffix("]") && host.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        return !host.isEmpty && host.count <= 253 && labels.allSatisfy(isHostLabel)
    }

    private static func isHostLabel(_ label: Substring) -> Bool {
        guard !label.isEmpty, label.count <= 63, label.first != "-", label.last != "-" else { return false }
        return label.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// `http(s)://AUTHORITY[/path...]` with a valid authority and no userinfo.
    private static func isURL(_ text: String) -> Bool {
        guard let schemeEnd = text.range(of: "://") else { return false }
        let rest = text[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !authority.contains("@") && isAuthority(authority)
    }
}

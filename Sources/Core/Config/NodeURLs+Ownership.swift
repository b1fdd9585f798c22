import Activity
import Foundation

extension NodeURLs {
    /// Whether `authority` (`host[:port]`, in any letter case) names this node. A missing port
    /// matches too: some servers drop the port when they build `acct:user@host`.
    public func isOwn(authority: String) -> Bool {
        let (host, port) = Self.split(HostAuthority.normalize(authority) ?? authority.lowercased())
        let (ownHost, ownPort) = Self.split(domain.lowercased())
        return host == ownHost && (port == nil || port == ownPort)
    }

    /// The canonical form of `url` when it is one of this node's URLs, comparing scheme and host
    /// without regard to letter case and treating an explicit default port as absent; `nil`
    /// for anything else. Every "is this ours?" decision goes through here, so another
    /// spelling of a local URL is never taken for a remote one.
    public func canonicalLocal(_ url: String) -> String? {
        guard let theirs = URLComponents(string: url), let ours = URLComponents(string: base),
            theirs.scheme?.lowercased() == ours.scheme?.lowercased(),
            theirs.percentEncodedHost.flatMap(HostAuthority.host) == ours.percentEncodedHost.flatMap(HostAuthority.host),
            Self.effectivePort(theirs) == Self.effectivePort(ours), theirs.user == nil
        else { return nil }
        var canonical = base + theirs.percentEncodedPath
        if let query = theirs.percentEncodedQuery { canonical += "?" + query }
        if let fragment = theirs.percentEncodedFragment { canonical += "#" + fragment }
        return canonical
    }

    /// Whether `url` is one of this node's URLs, in any spelling.
    public func isLocal(_ url: String) -> Bool { canonicalLocal(url) != nil }

    private static func effectivePort(_ components: URLComponents) -> Int? {
        components.port ?? (components.scheme?.lowercased() == "https" ? 443 : components.scheme?.lowercased() == "http" ? 80 : nil)
    }

    private static func split(_ authority: String) -> (host: Substring, port: Substring?) {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            let host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            return (host, rest.hasPrefix(":") ? rest.dropFirst() : nil)
        }
        guard let colon = authority.lastIndex(of: ":") else { return (Substring(authority), nil) }
        return (authority[..<colon], authority[authority.index(after: colon)...])
    }
}

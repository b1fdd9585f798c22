import Activity
import Foundation
import GRDB

/// Domain blocks as Mastodon applies them: a block of `example.com` covers `example.com` on
/// any port and every subdomain such as `media.example.com`.
public enum DomainBlocks {
    /// Whether the node refuses to federate with `authority` (`host[:port]`, any letter case):
    /// a block covers it, itself or through a parent domain, or the node is in allow-list mode
    /// and no allow covers it (`FederationPolicy`).
    /// - Parameters:
    ///   - authority: The host, with its port if any.
    ///   - db: An open database connection.
    /// - Returns: `true` when the node does not federate with it.
    public static func isBlocked(_ authority: String, in db: SQLSession) throws -> Bool {
        let keys = candidates(for: authority)
        guard !keys.isEmpty else { return false }
        if try DomainBlock.filter(keys.contains(Column("domain"))).fetchCount(db) > 0 { return true }
        return try FederationPolicy.mode(in: db) == .allowlist && !FederationPolicy.isAllowed(authority, in: db)
    }

    /// Every blocked domain, lowercased, for checking many hosts at once with `covers(_:_:)`.
    public static func all(in db: SQLSession) throws -> Set<String> {
        Set(try String.fetchAll(db, sql: "SELECT lower(domain) FROM domain_blocks"))
    }

    /// Whether one of `blocked` (from `all(in:)`) covers `authority`.
    public static func covers(_ blocked: Set<String>, _ authority: String) -> Bool {
        !blocked.isEmpty && candidates(for: authority).contains(where: blocked.contains)
    }

    /// The block entries that would cover `authority`: itself, its host without port, and the
    /// host's parent domains (not for IP addresses, whose "parents" mean nothing).
    static func candidates(for authority: String) -> [String] {
        // One spelling for every check (`HostAuthority`): `EVIL.example.` is `evil.example`.
        let lowered = HostAuthority.normalize(authority) ?? authority.lowercased()
        guard !lowered.isEmpty else { return [] }
        var host = lowered
        if !lowered.hasPrefix("["), let colon = lowered.lastIndex(of: ":") { host = String(lowered[..<colon]) }
        var keys = [lowered]
        if host != lowered { keys.append(host) }
        let isAddress = host.hasPrefix("[") || host.allSatisfy { $0.isNumber || $0 == "." }
        guard !isAddress else { return keys }
        var labels = host.split(separator: ".")
        while labels.count > 1 {
            labels.removeFirst()
            keys.append(labels.joined(separator: "."))
        }
        return keys
    }
}

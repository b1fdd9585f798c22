import Core

/// OAuth scopes as Mastodon defines them: `read`, `write`, `follow`, `push`, `profile` and the
/// granular `read:*`/`write:*` parts (docs.joinmastodon.org/api/oauth-scopes).
public struct Scopes: Sendable, Equatable, CustomStringConvertible {
    /// The granted scope names.
    public private(set) var names: Set<String>

    /// Every scope a client may request.
    public static let known: Set<String> = {
        let areas = ["accounts", "blocks", "bookmarks", "conversations", "favourites", "filters", "follows",
                     "lists", "mutes", "notifications", "search", "statuses"]
        var all: Set<String> = ["read", "write", "follow", "push", "profile", "admin:read", "admin:write"]
        for area in areas { all.insert("read:\(area)") }
        for area in areas + ["media", "reports"] where area != "search" { all.insert("write:\(area)") }
        for area in ["accounts", "reports", "domain_allows", "domain_blocks", "ip_blocks", "email_domain_blocks", "canonical_email_blocks"] {
            all.insert("admin:read:\(area)")
            all.insert("admin:write:\(area)")
        }
        return all
    }()

    /// The legacy `follow` scope grants these (Mastodon 3.5+ keeps it as an alias).
    private static let followParts: Set<String> = ["read:blocks", "write:blocks", "read:follows", "write:follows",
                                                   "read:mutes", "write:mutes"]

    /// Parses a space- (or `+`/comma-) separated scope list; empty means `read` (Mastodon's default).
    public init(_ text: String?) {
        let parts = (text ?? "").split(whereSeparator: { $0 == " " || $0 == "+" || $0 == "," }).map(String.init)
        names = parts.isEmpty ? ["read"] : Set(parts)
    }

    /// The scopes that are not known scope names.
    public var unknown: Set<String> { names.subtracting(Self.known) }

    /// Whether every scope here is also allowed by `other` (a token may not exceed its app).
    public func isSubset(of other: Scopes) -> Bool { names.allSatisfy { other.allows($0) } }

    /// Whether a request needing `required` (such as `read:statuses`) may proceed.
    public func allows(_ required: String) -> Bool {
        if names.contains(required) { return true }
        // `admin:read` covers `admin:read:accounts` and the other admin parts.
        if required.hasPrefix("admin:"), let colon = required.lastIndex(of: ":"), required[..<colon] != "admin" {
            return names.contains(String(required[..<colon]))
        }
        if let colon = required.firstIndex(of: ":") {
            let parent = String(required[..<colon])
            if names.contains(parent), parent == "read" || parent == "write" { return true }
        }
        // `profile` is only enough for verify_credentials, which asks for it explicitly.
        return names.contains("follow") && Self.followParts.contains(required)
    }

    /// Space-separated, sorted, as stored and as returned to clients.
    public var description: String { names.sorted().joined(separator: " ") }
}

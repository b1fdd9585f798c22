/// The rules for new local accounts, as a pure value check (no database).
package enum AccountValidation {
    /// Longest allowed username, as Mastodon.
    package static let maxUsernameLength = 30
    /// Shortest allowed password.
    package static let minPasswordLength = 8
    /// Longest allowed password (bounds hashing work per request).
    package static let maxPasswordLength = 256

    /// Names that would collide with routes, well-known roles or impersonation targets.
    package static let reservedUsernames: Set<String> = [
        "admin", "administrator", "root", "system", "inbox", "outbox", "users", "user", "api", "oauth",
        "well_known", "nodeinfo", "about", "settings", "search", "tags", "tag", "explore", "public",
        "support", "help", "instance", "null", "www", "mail", "webmaster", "postmaster", "hostmaster",
        "abuse", "security", "moderator", "mod", "staff", "fednode", "actor", "media", "static", "auth",
        "login", "logout", "signup", "register", "statuses", "notifications", "timelines", "healthz",
    ]

    /// Checks a username: letters, digits and underscore, 1 to 30 characters, not reserved.
    /// - Throws: `NodeError.validation` naming the rule that failed.
    package static func checkUsername(_ username: String) throws(NodeError) {
        guard !username.isEmpty else { throw .validation("Username can't be blank") }
        guard username.count <= maxUsernameLength else {
            throw .validation("Username is too long (maximum is \(maxUsernameLength) characters)")
        }
        guard username.unicodeScalars.allSatisfy(isUsernameScalar) else {
            throw .validation("Username must contain only letters, numbers and underscores")
        }
        guard !reservedUsernames.contains(username.lowercased()) else {
            throw .validation("Username is reserved")
        }
    }

    /// Checks an email's shape: one `@`, a local part, and a dotted domain of valid labels.
    /// - Throws: `NodeError.validation`.
    package static func checkEmail(_ email: String) throws(NodeError) {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64,
            parts[0].unicodeScalars.allSatisfy({ $0.value > 32 && $0.value < 127 && !"()<>,;:\\\"[]".unicodeScalars.contains($0) }),
            isEmailDomain(parts[1])
        else { throw .validation("Email is invalid") }
    }

    /// Checks a password's length.
    /// - Throws: `NodeError.validation`.
    package static func checkPassword(_ password: String) throws(NodeError) {
        guard password.count >= minPasswordLength else {
            throw .validation("Password is too short (minimum is \(minPasswordLength) characters)")
        }
        guard password.count <= maxPasswordLength else {
            throw .validation("Password is too long (maximum is \(maxPasswordLength) characters)")
        }
    }

    private static func isUsernameScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    private static func isEmailDomain(_ domain: Substring) -> Bool {
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, domain.count <= 253 else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.unicodeScalars.allSatisfy { $0 == "-" || isUsernameScalar($0) && $0 != "_" || $0.value > 127 }
        }
    }
}

import Foundation
import Storage

/// Browsers an account signed in from before. After each successful sign-in in a browser (the
/// web app's login, the OAuth login form, `authorize_interaction`, an emailed sign-in link) it
/// holds a long-lived device cookie: a random token, new at every sign-in, whose SHA-256 alone
/// is stored, bound to each account signed in from it. While strangers' failed sign-ins lock an
/// account, the right password from such a browser still gets in. Its wrong passwords count like
/// any other, and after `SignInBackoff.threshold` of them past a lock the browser is no longer
/// trusted for that account. A browser unused for `lifetime` is forgotten, an account keeps its
/// `perAccount` most recent ones, and a password reset forgets them all.
///
/// Only browsers qualify, not addresses: an address that signed in before is shared by everyone
/// behind the same NAT, mobile carrier or untrusted proxy, so it would let strangers through too.
package struct DeviceTrust: Sendable {
    /// The cookie's name.
    package static let cookieName = "fednode_device"
    /// How long a browser stays trusted without signing in.
    package static let lifetime: TimeInterval = 90 * 86_400
    /// How many browsers one account is trusted from.
    package static let perAccount = 10
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// The account signing in with `email` when the browser of `token` is trusted for it.
    package func trustedAccount(_ token: String, email: String) async -> Int64? {
        let hash = TokenSecret.hash(token), since = Date().addingTimeInterval(-Self.lifetime)
        return try? await node.database.read { db -> Int64? in
            guard let credential = try db.accounts.credential(email: email),
                try db.trustedDevices.isTrusted(hash, account: credential.accountId, usedSince: since)
            else { return nil }
            return credential.accountId
        }
    }

    /// Counts a wrong password the browser of `token` sent to `accountId` past a lock.
    package func failed(_ token: String, account accountId: Int64) async {
        let hash = TokenSecret.hash(token), limit = node.configuration.rateLimits.failedSignIns.threshold
        _ = try? await node.database.write { db in try db.trustedDevices.countFailure(hash, account: accountId, limit: limit) }
    }

    /// Trusts the browser that carried the device token `old` (if any) for `account`, which just
    /// signed in from it: its new token replaces the old one, for every account trusted under it.
    /// - Returns: The new raw token, for the browser's device cookie.
    package func renew(_ old: String?, for account: Account) async throws -> String {
        let raw = TokenSecret.new(), hash = TokenSecret.hash(raw)
        let previous = old.map(TokenSecret.hash), now = Date()
        try await node.database.write { db in
            if let previous { try db.trustedDevices.rotate(from: previous, to: hash) }
            try db.trustedDevices.trust(hash, account: account.id, at: now, keep: Self.perAccount)
        }
        return raw
    }
}

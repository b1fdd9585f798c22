import Foundation
import Hummingbird
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
struct DeviceTrust: Sendable {
    /// The cookie's name.
    static let cookieName = "fednode_device"
    /// How long a browser stays trusted without signing in.
    static let lifetime: TimeInterval = 90 * 86_400
    /// How many browsers one account is trusted from.
    static let perAccount = 10
    let node: Node

    /// The device token `request` carries, if any (a plausible length only).
    static func token(in request: Request) -> String? {
        WebCookies.value(cookieName, in: request).flatMap { (20...100).contains($0.count) ? $0 : nil }
    }

    /// The account signing in with `email` when the browser of `token` is trusted for it.
    func trustedAccount(_ token: String, email: String) async -> Int64? {
        let hash = APIAuth.hash(token), since = Date().addingTimeInterval(-Self.lifetime)
        return try? await node.database.read { db -> Int64? in
            guard let credential = try db.accounts.credential(email: email),
                try db.trustedDevices.isTrusted(hash, account: credential.accountId, usedSince: since)
            else { return nil }
            return credential.accountId
        }
    }

    /// Counts a wrong password the browser of `token` sent to `accountId` past a lock.
    func failed(_ token: String, account accountId: Int64) async {
        let hash = APIAuth.hash(token), limit = node.configuration.rateLimits.failedSignIns.threshold
        _ = try? await node.database.write { db in try db.trustedDevices.countFailure(hash, account: accountId, limit: limit) }
    }

    /// Trusts the browser of `request` for `account`, which just signed in from it: its new
    /// token replaces the one it had, for every account trusted under that one.
    /// - Returns: The `Set-Cookie` value of the new device cookie.
    func remember(_ account: Account, from request: Request) async throws -> String {
        let raw = APIAuth.newSecret(), hash = APIAuth.hash(raw)
        let old = Self.token(in: request).map(APIAuth.hash), now = Date()
        try await node.database.write { db in
            if let old { try db.trustedDevices.rotate(from: old, to: hash) }
            try db.trustedDevices.trust(hash, account: account.id, at: now, keep: Self.perAccount)
        }
        return WebCookies.make(Self.cookieName, raw, maxAge: Int(Self.lifetime), secure: node.urls.base.hasPrefix("https:"))
    }
}

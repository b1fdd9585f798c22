import Core
import Hummingbird
import Storage

extension DeviceTrust {
    /// The device token `request` carries, if any (a plausible length only).
    static func token(in request: Request) -> String? {
        WebCookies.value(cookieName, in: request).flatMap { (20...100).contains($0.count) ? $0 : nil }
    }

    /// Trusts the browser of `request` for `account`, which just signed in from it.
    /// - Returns: The `Set-Cookie` value of the new device cookie.
    func remember(_ account: Account, from request: Request) async throws -> String {
        let raw = try await renew(Self.token(in: request), for: account)
        return WebCookies.make(Self.cookieName, raw, maxAge: Int(Self.lifetime), secure: node.urls.base.hasPrefix("https:"))
    }
}

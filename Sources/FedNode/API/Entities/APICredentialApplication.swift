import Core
import Foundation
import Storage

/// A registered app (`Application`, and `CredentialApplication` right after registration,
/// which adds the client credentials).
public struct APICredentialApplication: Codable, Sendable, Equatable {
    /// App id.
    public var id: String
    /// Application name.
    public var name: String
    /// Application website.
    @Nullable public var website: String?
    /// Granted scopes.
    public var scopes: [String]
    /// Redirect URIs joined by newlines (deprecated by Mastodon 4.3, still read by clients).
    public var redirectUri: String
    /// Redirect URIs.
    public var redirectUris: [String]
    /// The node's VAPID public key (base64url), which Web Push subscriptions are made against.
    public var vapidKey: String
    /// Client id; registration only.
    public var clientId: String?
    /// Client secret; registration only.
    public var clientSecret: String?
    /// 0: the secret never expires; registration only.
    public var clientSecretExpiresAt: Int?

    /// The entity for `app`, with the credentials when `withCredentials`.
    /// - Parameter vapidKey: The node's VAPID public key, base64url.
    public init(_ app: OAuthApp, withCredentials: Bool, vapidKey: String) {
        let uris = RedirectURIs.registered(app)
        id = String(app.id)
        name = app.name
        website = app.website
        scopes = Scopes(app.scopes).names.sorted()
        redirectUri = uris.joined(separator: "\n")
        redirectUris = uris
        self.vapidKey = vapidKey
        if withCredentials {
            clientId = app.clientId
            clientSecret = app.clientSecret
            clientSecretExpiresAt = 0
        }
    }
}

import Core
import Foundation
import Storage

/// A checked `/oauth/authorize` request (RFC 6749 4.1.1 with PKCE, RFC 7636 4.3). The GET that
/// shows the login form and the POST that submits it check the same parameters.
struct AuthorizationRequest: Sendable {
    /// The app asking.
    var app: OAuthApp
    /// Where the code goes: one of the app's registered URIs.
    var redirectURI: String
    /// The scopes asked for (at most the app's).
    var scopes: Scopes
    /// Opaque value returned to the app unchanged.
    var state: String?
    /// PKCE challenge.
    var codeChallenge: String?
    /// PKCE method, `S256` or `plain`.
    var codeChallengeMethod: String?
    /// Language of the page (`lang`), a plain tag.
    var language: String

    /// Why a request cannot go on.
    enum Failure: Error {
        /// The client or its redirect URI is unknown: shown to the person, never redirected
        /// (RFC 6749 4.1.2.1), since the URI cannot be trusted.
        case invalidClient(String)
        /// Anything else, reported to the app at its verified redirect URI.
        case rejected(OAuthError, redirectURI: String, state: String?)
    }

    /// Checks the parameters of an authorization request.
    /// - Throws: `Failure`, or `NodeError.internal` when the app cannot be read.
    static func check(_ params: APIParams, clients: OAuthClients) async throws -> AuthorizationRequest {
        guard let clientId = params.nonEmpty("client_id"), let app = try await clients.app(clientId: clientId) else {
            throw Failure.invalidClient("Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.")
        }
        let registered = RedirectURIs.registered(app)
        // RFC 6749 3.1.2.3: the parameter may be left out when exactly one URI is registered.
        guard let redirectURI = params.nonEmpty("redirect_uri") ?? (registered.count == 1 ? registered[0] : nil),
            registered.contains(redirectURI)
        else { throw Failure.invalidClient("The redirect uri included is not valid.") }
        let state = params.string("state")
        func reject(_ error: OAuthError) -> Failure { .rejected(error, redirectURI: redirectURI, state: state) }
        guard params.string("response_type") == "code" else { throw reject(.unsupportedResponseType) }
        let scopes = Scopes(params.nonEmpty("scope"))
        guard scopes.unknown.isEmpty, scopes.isSubset(of: Scopes(app.scopes)) else { throw reject(.invalidScope) }
        let challenge = params.nonEmpty("code_challenge")
        var method = params.nonEmpty("code_challenge_method")
        if let challenge {
            method = method ?? "plain"
            guard method == "S256" || method == "plain" else { throw reject(.invalidRequest("Code challenge method must be S256 or plain.")) }
            guard PKCE.isWellFormed(challenge) else { throw reject(.invalidRequest("Code challenge is malformed.")) }
        } else {
            method = nil
        }
        return AuthorizationRequest(app: app, redirectURI: redirectURI, scopes: scopes, state: state, codeChallenge: challenge,
                                    codeChallengeMethod: method, language: Self.language(params.string("lang")))
    }

    /// A safe `lang` attribute: letters, digits and `-`, else English.
    private static func language(_ raw: String?) -> String {
        guard let raw, (2...16).contains(raw.count),
            raw.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" })
        else { return "en" }
        return raw
    }
}

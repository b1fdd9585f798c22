import Core
import Foundation
import Hummingbird

/// An error of the OAuth endpoints in the RFC 6749 5.2 shape, `{"error": "invalid_grant",
/// "error_description": "..."}`, which OAuth client libraries read instead of Mastodon's
/// plain `{"error": "..."}`. The descriptions are Doorkeeper's, as Mastodon sends them.
public struct OAuthError: Error, Sendable, Equatable, HTTPResponseError {
    /// The RFC 6749 error code.
    public var code: String
    /// Human-readable explanation.
    public var description: String
    /// 400, or 401 for `invalid_client`, 403 for `unauthorized_client`.
    public var status: HTTPResponse.Status
    /// Extra response headers (`WWW-Authenticate` after failed Basic authentication).
    public var headers: HTTPFields = [:]

    /// The request is malformed or misses a parameter.
    public static func invalidRequest(_ detail: String? = nil) -> OAuthError {
        OAuthError(code: "invalid_request", description: detail ?? "The request is missing a required parameter, includes an unsupported parameter value, or is otherwise malformed.", status: .badRequest)
    }
    /// The client is unknown or its secret is wrong (401).
    public static func invalidClient(basic: Bool = false) -> OAuthError {
        OAuthError(code: "invalid_client", description: "Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.",
                   status: .unauthorized, headers: basic ? [.wwwAuthenticate: "Basic realm=\"FedNode\""] : [:])
    }
    /// The code, credentials or refresh token are invalid, expired, used or not the client's.
    public static let invalidGrant = OAuthError(
        code: "invalid_grant",
        description: "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
        status: .badRequest)
    /// A scope that is unknown or exceeds the app's.
    public static let invalidScope = OAuthError(code: "invalid_scope", description: "The requested scope is invalid, unknown, or malformed.", status: .badRequest)
    /// A grant type this server does not offer.
    public static let unsupportedGrantType = OAuthError(code: "unsupported_grant_type", description: "The authorization grant type is not supported by the authorization server.", status: .badRequest)
    /// A response type other than `code`.
    public static let unsupportedResponseType = OAuthError(code: "unsupported_response_type", description: "The authorization server does not support this response type.", status: .badRequest)
    /// The person declined.
    public static let accessDenied = OAuthError(code: "access_denied", description: "The resource owner or authorization server denied the request.", status: .badRequest)
    /// Revoking a token issued to another client (403).
    public static let unauthorizedClient = OAuthError(code: "unauthorized_client", description: "You are not authorized to revoke this token", status: .forbidden)

    /// The JSON error response; never cached (RFC 6749 5.2).
    public func response(from request: Request, context: some RequestContext) throws -> Response { response() }

    /// The JSON error response.
    func response() -> Response {
        var fields = headers
        fields[.cacheControl] = "no-store"
        return JSONResponse.encode(["error": code, "error_description": description], status: status, headers: fields)
    }
}

import Foundation

/// Every failure the node reports to a client. The message is client-safe; internal detail
/// goes to the log only. Each case names the kind of failure; the HTTP layer maps the kinds to
/// statuses and the Mastodon `{"error": "..."}` body (`NodeError+HTTP` in `FedNode`).
public enum NodeError: Error, Sendable, Equatable {
    /// Malformed request (400).
    case badRequest(String)
    /// Missing or invalid credentials or signature (401).
    case unauthorized(String)
    /// Authenticated but not allowed (403).
    case forbidden(String)
    /// Unknown or invisible resource (404).
    case notFound(String)
    /// No representation matches the Accept header (406).
    case notAcceptable(String)
    /// Deleted resource (410).
    case gone(String)
    /// Body over the limit (413).
    case payloadTooLarge(String)
    /// Wrong Content-Type (415).
    case unsupportedMediaType(String)
    /// Well-formed but invalid input (422).
    case validation(String)
    /// Rate limit reached (429).
    case tooManyRequests(String)
    /// Something the request needs from elsewhere is out of reach for now, such as the signing
    /// key of an inbox request whose origin timed out (503 with `Retry-After`): the sender should
    /// try again later, where a 4xx would make it give up.
    case unavailable(String)
    /// A bug or an unavailable dependency (500); the message is logged, not sent.
    case `internal`(String)
    /// The node cannot start with the settings given (never an HTTP answer).
    case configuration(String)

    /// The message sent to the client.
    public var message: String {
        switch self {
        case .badRequest(let m), .unauthorized(let m), .forbidden(let m), .notFound(let m),
            .notAcceptable(let m), .gone(let m), .payloadTooLarge(let m), .unsupportedMediaType(let m),
            .validation(let m), .tooManyRequests(let m), .unavailable(let m):
            m
        case .configuration(let m): m
        case .internal: "Internal server error"
        }
    }

    /// Whether the failure is the node's own (a bug, or a dependency out of reach) rather than
    /// something wrong with the request: the kinds answered with a 500.
    public var isServerFault: Bool {
        switch self {
        case .internal, .configuration: true
        default: false
        }
    }
}

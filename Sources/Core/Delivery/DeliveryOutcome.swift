/// What one attempt to deliver an activity came to, as `RetryPolicy` sees it.
public enum DeliveryOutcome: Sendable, Equatable {
    /// The inbox answered with `status`; `retryAfter` is its `Retry-After` header, if any;
    /// `excerpt` the first bytes of its body, for the log.
    case response(status: Int, retryAfter: String? = nil, excerpt: String = "")
    /// No complete answer: the name did not resolve, the connection was refused or broke, TLS
    /// failed, or the request timed out (the reason is attached).
    case networkFailure(String)
    /// The inbox resolved to an address the node does not send to (loopback, private, ...: the
    /// SSRF guard); the refused address is attached.
    case refused(String)
    /// The request could not be built: an unusable inbox URL or no usable signing key.
    case unsendable(String)
    /// Nothing was sent: the inbox's address had as many requests in flight as one address may
    /// (many domains on one machine). Not an attempt, and says nothing of the domain's health.
    case deferred(String)
}

extension DeliveryOutcome {
    /// The HTTP status, when the inbox answered.
    package var status: Int? {
        if case .response(let status, _, _) = self { return status }
        return nil
    }

    /// Whether a request was sent (or could not be built), so the attempt counts.
    package var counts: Bool {
        if case .deferred = self { return false }
        return true
    }

    /// A short description for the queue's `last_error` column and the log.
    package var summary: String {
        switch self {
        case .response(let status, _, let excerpt): excerpt.isEmpty ? "HTTP \(status)" : "HTTP \(status): \(excerpt)"
        case .networkFailure(let reason): reason
        case .refused(let address): "refused to deliver to non-public address \(address)"
        case .unsendable(let reason): reason
        case .deferred(let address): "not sent: address \(address) has as many requests in flight as it may"
        }
    }
}

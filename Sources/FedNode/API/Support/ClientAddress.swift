import Foundation
import HTTPTypes
import Hummingbird

/// The address a request came from, as rate limits key it. Production nodes sit behind a TLS
/// proxy on the same host (DESIGN.md), so when the peer is a loopback address the proxy's
/// `X-Forwarded-For` names the client; from any other peer the header is ignored, so a client
/// cannot pick its own key.
enum ClientAddress {
    /// The client's address, or `"unknown"` when there is none (in-process tests with no header).
    static func of(_ request: Request, context: NodeRequestContext) -> String {
        let peer = context.remoteAddress?.ipAddress
        if peer == nil || peer.map(isLoopback) == true, let forwarded = lastForwarded(request) {
            return forwarded
        }
        return peer ?? "unknown"
    }

    /// The right-most `X-Forwarded-For` entry: the one the proxy itself appended.
    private static func lastForwarded(_ request: Request) -> String? {
        guard let name = HTTPField.Name("X-Forwarded-For") else { return nil }
        let entries = request.headers[values: name].flatMap { $0.split(separator: ",") }
        let last = entries.last.map { $0.trimmingCharacters(in: .whitespaces) }
        return last.flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }
}

extension Node {
    /// Counts one request from the client of `request` against `rule` under `bucket`.
    /// - Returns: The `X-RateLimit-*` headers to send with the answer.
    /// - Throws: `RateLimitExceeded` (429) when the client's window is full.
    func throttle(_ bucket: String, rule: RateLimiter.Rule, request: Request, context: NodeRequestContext) async throws(RateLimitExceeded) -> HTTPFields {
        try await rateLimiter.hit("\(bucket):\(ClientAddress.of(request, context: context))", rule: rule)
    }
}

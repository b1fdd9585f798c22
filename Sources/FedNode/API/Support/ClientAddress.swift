import Core
import Foundation
import HTTPTypes
import Hummingbird

/// The address a request came from, as rate limits key it. When the peer is a trusted proxy
/// (`--trusted-proxy`; loopback by default, for a TLS proxy on the same host), the client is the
/// right-most `X-Forwarded-For` entry that is not itself a trusted proxy (proxies append, so
/// entries further left are the client's own claims). From any other peer the header is
/// ignored, so a client cannot pick its own key.
enum ClientAddress {
    /// The client's address, or `"unknown"` when there is none (in-process tests with no header).
    static func of(_ request: Request, context: NodeRequestContext, trusting proxies: TrustedProxies) -> String {
        resolve(peer: context.remoteAddress?.ipAddress, forwarded: forwardedChain(request), trusting: proxies)
    }

    /// The client of a connection from `peer` whose request carried the `X-Forwarded-For`
    /// entries `forwarded` (left to right).
    static func resolve(peer: String?, forwarded: [String], trusting proxies: TrustedProxies) -> String {
        guard peer == nil || peer.map(proxies.contains) == true else { return peer ?? "unknown" }
        let client = forwarded.last { !proxies.contains($0) } ?? forwarded.first
        return client ?? peer ?? "unknown"
    }

    /// The `X-Forwarded-For` entries, left (client) to right (nearest proxy).
    private static func forwardedChain(_ request: Request) -> [String] {
        guard let name = HTTPField.Name("X-Forwarded-For") else { return [] }
        return request.headers[values: name].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }
}

extension Node {
    /// Counts one request from the client of `request` against `rule` under `bucket`.
    /// - Returns: The `X-RateLimit-*` headers to send with the answer.
    /// - Throws: `RateLimitExceeded` (429) when the client's window is full.
    func throttle(_ bucket: String, rule: RateLimiter.Rule, request: Request, context: NodeRequestContext) async throws(RateLimitExceeded) -> HTTPFields {
        let client = ClientAddress.of(request, context: context, trusting: configuration.trustedProxies)
        return try await rateLimiter.hit("\(bucket):\(client)", rule: rule).headers
    }
}

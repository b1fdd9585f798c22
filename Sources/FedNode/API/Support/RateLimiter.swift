import Foundation
import HTTPTypes
import Hummingbird
import Storage

/// Fixed-window request counting per key (client address and endpoint), for the endpoints
/// Mastodon throttles: sign-up, login and token requests. Answers 429 with `X-RateLimit-*`.
public actor RateLimiter {
    /// A limit: at most `limit` requests per `window` seconds.
    public struct Rule: Sendable {
        /// Requests allowed per window.
        public var limit: Int
        /// Window length in seconds.
        public var window: TimeInterval

        /// A rule of `limit` requests per `window` seconds.
        public init(limit: Int, window: TimeInterval) {
            self.limit = limit
            self.window = window
        }
    }

    private var windows: [String: (start: Date, count: Int)] = [:]
    private let now: @Sendable () -> Date
    /// Where windows are counted when several processes serve the node; `nil`: in memory.
    private let shared: NodeDatabase?

    /// A limiter reading time from `now`, counting in memory, or in `shared` when several
    /// processes serve the node (each must see the others' requests).
    public init(now: @escaping @Sendable () -> Date = Date.init, shared: NodeDatabase? = nil) {
        self.now = now
        self.shared = shared
    }

    /// Counts one request under `key`.
    /// - Returns: The `X-RateLimit-*` headers to send.
    /// - Throws: `RateLimitExceeded` (429 with those headers) when the window is full.
    public func hit(_ key: String, rule: Rule) async throws(RateLimitExceeded) -> HTTPFields {
        let current = now()
        let entry = await count(key, rule: rule, at: current)
        let reset = entry.start.addingTimeInterval(rule.window)
        let headers: HTTPFields = [
            .rateLimitLimit: String(rule.limit),
            .rateLimitRemaining: String(max(rule.limit - entry.count, 0)),
            .rateLimitReset: EntityRenderer.timestamp(reset),
        ]
        guard entry.count <= rule.limit else { throw RateLimitExceeded(headers: headers) }
        return headers
    }

    /// The window of `key` with this request counted: in the shared database when there is
    /// one (in memory if it cannot be written: a limiter must not take the endpoint down).
    private func count(_ key: String, rule: Rule, at current: Date) async -> (start: Date, count: Int) {
        if let shared, let window = try? await shared.writeBookkeeping({ db in
            try db.coordination.countHit("request:\(key)", window: rule.window, at: current)
        }) {
            return (window.startedAt, window.hits)
        }
        var entry = windows[key] ?? (current, 0)
        if current.timeIntervalSince(entry.start) >= rule.window { entry = (current, 0) }
        entry.count += 1
        windows[key] = entry
        if windows.count > 50_000 { prune(before: current.addingTimeInterval(-rule.window)) }
        return entry
    }

    private func prune(before cutoff: Date) {
        windows = windows.filter { $0.value.start >= cutoff }
    }
}

/// A full rate-limit window: 429 `{"error": "Too many requests"}` with `X-RateLimit-*` headers.
public struct RateLimitExceeded: Error, HTTPResponseError {
    /// The headers describing the limit.
    public let headers: HTTPFields
    /// 429.
    public var status: HTTPResponse.Status { .tooManyRequests }

    /// The JSON error response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.bytes(Data(#"{"error":"Too many requests"}"#.utf8), contentType: JSONResponse.json, status: status, headers: headers)
    }
}

extension HTTPField.Name {
    /// `X-RateLimit-Limit`.
    static var rateLimitLimit: Self { .init("X-RateLimit-Limit")! }
    /// `X-RateLimit-Remaining`.
    static var rateLimitRemaining: Self { .init("X-RateLimit-Remaining")! }
    /// `X-RateLimit-Reset`.
    static var rateLimitReset: Self { .init("X-RateLimit-Reset")! }
}

import Foundation
import Storage

/// Fixed-window request counting per key (client address and endpoint), for the endpoints
/// Mastodon throttles: sign-up, login and token requests. The HTTP layer answers a full window
/// with 429 and `X-RateLimit-*` headers.
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
    /// - Returns: The window with this request counted.
    /// - Throws: `RateLimitExceeded` when the window is full.
    @discardableResult
    public func hit(_ key: String, rule: Rule) async throws(RateLimitExceeded) -> RateLimitWindow {
        let current = now()
        let entry = await count(key, rule: rule, at: current)
        let window = RateLimitWindow(limit: rule.limit, remaining: max(rule.limit - entry.count, 0),
                                     reset: entry.start.addingTimeInterval(rule.window))
        guard entry.count <= rule.limit else { throw RateLimitExceeded(window: window) }
        return window
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

/// Where a key stands in its window, as the `X-RateLimit-*` headers tell it.
public struct RateLimitWindow: Sendable, Equatable {
    /// Requests allowed per window.
    public var limit: Int
    /// Requests left in this window.
    public var remaining: Int
    /// When the window ends.
    public var reset: Date
    /// Seconds until a refused client may try again (`Retry-After`), when it is told.
    public var retryAfter: Int?

    /// A window of `limit` requests with `remaining` left until `reset`.
    public init(limit: Int, remaining: Int, reset: Date, retryAfter: Int? = nil) {
        self.limit = limit
        self.remaining = remaining
        self.reset = reset
        self.retryAfter = retryAfter
    }
}

/// A full rate-limit window (429 `{"error": "Too many requests"}` over HTTP).
public struct RateLimitExceeded: Error, Sendable {
    /// The window that is full.
    public let window: RateLimitWindow

    /// A refusal for `window`.
    public init(window: RateLimitWindow) {
        self.window = window
    }
}

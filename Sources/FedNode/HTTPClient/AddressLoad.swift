import Synchronization

/// The requests one `CurlHTTPClient` has in flight per peer address, and the bound on them:
/// many names can point at one machine (twenty cheap domains, or one server answering for any
/// subdomain), so a per-domain cap alone lets one machine hold every slot of a node-wide pool.
///
/// An address is an IPv4 address, or an IPv6 /64 (one customer's prefix). A request counts
/// against its address from the moment libcurl opens a socket to it (or reuses a connection to
/// it) until the request ends. An address whose last request timed out is *slow*: its bound
/// drops to `slowLimit` for `slowFor`, so a machine that holds connections open without
/// answering soon costs only a few slots; any answer from it lifts the mark.
///
/// Thread-safe: libcurl's callbacks call it on the client's worker thread, tests from anywhere.
public final class AddressLoad: Sendable {
    /// Requests in flight to one address at most.
    public let limit: Int
    /// Requests in flight to one slow address at most.
    public let slowLimit: Int
    /// How long a timed-out address stays slow.
    public let slowFor: Duration
    private let state = Mutex<State>(State())

    private struct State {
        var inFlight: [AddressKey: Int] = [:]
        var slowUntil: [AddressKey: ContinuousClock.Instant] = [:]
    }

    /// Creates the bookkeeping for one client.
    /// - Parameters:
    ///   - limit: Requests in flight to one address at most.
    ///   - slowLimit: The bound for an address whose last request timed out.
    ///   - slowFor: How long such an address stays slow unless it answers.
    public init(limit: Int, slowLimit: Int = 4, slowFor: Duration = .seconds(600)) {
        self.limit = max(1, limit)
        self.slowLimit = max(1, min(slowLimit, limit))
        self.slowFor = slowFor
    }

    /// Counts one more request to `key`, unless the address is at its bound.
    /// - Returns: Whether the request may go ahead (and is now counted).
    func acquire(_ key: AddressKey, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            let bound = (state.slowUntil[key].map { $0 > now } ?? false) ? slowLimit : limit
            let current = state.inFlight[key] ?? 0
            guard current < bound else { return false }
            state.inFlight[key] = current + 1
            return true
        }
    }

    /// Counts a request to `key` as ended, marking the address slow when it timed out and
    /// lifting the mark when it answered.
    /// - Parameters:
    ///   - key: The address the request was counted against.
    ///   - timedOut: Whether the request ran out of time.
    ///   - answered: Whether a response arrived.
    func release(_ key: AddressKey, timedOut: Bool = false, answered: Bool = false, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            let left = (state.inFlight[key] ?? 1) - 1
            state.inFlight[key] = left > 0 ? left : nil
            if timedOut {
                if state.slowUntil.count >= 10_000 { state.slowUntil = state.slowUntil.filter { $0.value > now } }
                state.slowUntil[key] = now + slowFor
            } else if answered {
                state.slowUntil[key] = nil
            }
        }
    }

    /// Requests in flight to the address written `text` (`192.0.2.7`, `2001:db8::1`).
    public func inFlight(_ text: String) -> Int {
        guard let key = AddressKey(text: text) else { return 0 }
        return state.withLock { $0.inFlight[key] ?? 0 }
    }

    /// Whether the address written `text` is marked slow now.
    public func isSlow(_ text: String) -> Bool {
        guard let key = AddressKey(text: text) else { return false }
        let now = ContinuousClock.now
        return state.withLock { $0.slowUntil[key].map { $0 > now } ?? false }
    }
}

/// The unit `AddressLoad` counts by: an IPv4 address, or the /64 an IPv6 address is in.
struct AddressKey: Hashable, Sendable {
    private let bytes: [UInt8]

    /// The key of an address given as its network-order bytes (four or sixteen); `nil` otherwise.
    init?(bytes: [UInt8]) {
        switch bytes.count {
        case 4: self.bytes = bytes
        case 16: self.bytes = Array(bytes.prefix(8))
        default: return nil
        }
    }

    /// The key of an address written as an IPv4 or IPv6 literal; `nil` when it is neither.
    init?(text: String) {
        guard let bytes = AddressPolicy.bytes(literal: text) else { return nil }
        self.init(bytes: bytes)
    }
}

import Synchronization

/// The requests one `CurlHTTPClient` has in flight per peer address, and the bounds on them:
/// many names can point at one machine (twenty cheap domains, or one server answering for any
/// subdomain), so a per-domain cap alone lets one machine hold every slot of a node-wide pool.
///
/// An address is an IPv4 address, or an IPv6 /64 (one customer's prefix); IPv4 reached through
/// NAT64 or written IPv4-mapped counts as that IPv4 address. A request counts against its
/// address and its host from the moment libcurl opens a socket (or reuses a connection) until
/// the request ends:
/// - one address has at most `limit` requests in flight, whatever names they went to;
/// - a host whose last request timed out is *slow* for `slowFor` and has at most `slowLimit`
///   in flight; any answer from it lifts the mark. The mark is the host's, not the address's:
///   many honest servers share a CDN's addresses, and one hanging tenant must not slow them.
///
/// Thread-safe: libcurl's callbacks call it on the client's worker thread, tests from anywhere.
public final class AddressLoad: Sendable {
    /// Requests in flight to one address at most.
    public let limit: Int
    /// Requests in flight to one slow host at most.
    public let slowLimit: Int
    /// How long a host stays slow after a request to it timed out.
    public let slowFor: Duration
    private let state = Mutex<State>(State())

    private struct State {
        var perAddress: [AddressKey: Int] = [:]
        var perHost: [String: Int] = [:]
        var slowUntil: [String: ContinuousClock.Instant] = [:]
    }

    /// Creates the bookkeeping for one client.
    /// - Parameters:
    ///   - limit: Requests in flight to one address at most.
    ///   - slowLimit: Requests in flight to a host whose last request timed out.
    ///   - slowFor: How long such a host stays slow unless it answers.
    public init(limit: Int, slowLimit: Int = 2, slowFor: Duration = .seconds(600)) {
        self.limit = max(1, limit)
        self.slowLimit = max(1, min(slowLimit, limit))
        self.slowFor = slowFor
    }

    /// Counts one more request to `host` at `key`, unless the address or the (slow) host is at
    /// its bound.
    /// - Returns: Whether the request may go ahead (and is now counted).
    package func acquire(_ key: AddressKey, host: String, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            let slow = state.slowUntil[host].map { $0 > now } ?? false
            guard (state.perAddress[key] ?? 0) < limit, !slow || (state.perHost[host] ?? 0) < slowLimit else { return false }
            state.perAddress[key, default: 0] += 1
            state.perHost[host, default: 0] += 1
            return true
        }
    }

    /// Counts a request to `host` at `key` as ended, marking the host slow when it timed out and
    /// lifting the mark when it answered.
    package func release(_ key: AddressKey, host: String, timedOut: Bool = false, answered: Bool = false, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            let left = (state.perAddress[key] ?? 1) - 1
            state.perAddress[key] = left > 0 ? left : nil
            let hostLeft = (state.perHost[host] ?? 1) - 1
            state.perHost[host] = hostLeft > 0 ? hostLeft : nil
            if timedOut {
                if state.slowUntil.count >= 10_000 { state.slowUntil = state.slowUntil.filter { $0.value > now } }
                state.slowUntil[host] = now + slowFor
            } else if answered {
                state.slowUntil[host] = nil
            }
        }
    }

    /// Requests in flight to the address written `text` (`192.0.2.7`, `2001:db8::1`).
    public func inFlight(_ text: String) -> Int {
        guard let key = AddressKey(text: text) else { return 0 }
        return state.withLock { $0.perAddress[key] ?? 0 }
    }

    /// Whether `host` (`name[:port]` as requested) is marked slow now.
    public func isSlow(host: String) -> Bool {
        let now = ContinuousClock.now
        return state.withLock { $0.slowUntil[host].map { $0 > now } ?? false }
    }
}

/// The unit `AddressLoad` counts by: an IPv4 address, or the /64 an IPv6 address is in.
package struct AddressKey: Hashable, Sendable {
    private let bytes: [UInt8]

    /// The key of an address given as its network-order bytes (four or sixteen); `nil` otherwise.
    package init?(bytes: [UInt8]) {
        switch bytes.count {
        case 4: self.bytes = bytes
        case 16: self.bytes = AddressPolicy.embeddedIPv4(bytes) ?? Array(bytes.prefix(8))
        default: return nil
        }
    }

    /// The key of an address written as an IPv4 or IPv6 literal; `nil` when it is neither.
    package init?(text: String) {
        guard let bytes = AddressPolicy.bytes(literal: text) else { return nil }
        self.init(bytes: bytes)
    }
}

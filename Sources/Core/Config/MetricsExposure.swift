import Foundation

/// Who may read `GET /metrics` (`--metrics`, `FEDNODE_METRICS`).
///
/// The default, `private`, answers only requests that come straight from loopback or a private
/// network (RFC 1918, IPv6 unique local) and carry no forwarding header naming any other
/// address: a Prometheus server on the host or the LAN scrapes it, while the public, whose
/// requests reach the node through the TLS proxy with `X-Forwarded-For`, get a 404. A proxy
/// that forwards without setting `X-Forwarded-For` must not pass `/metrics` on.
public enum MetricsExposure: String, Sendable, CaseIterable {
    /// No `/metrics` route (counters are still kept: they cost next to nothing).
    case off
    /// Loopback and private-network clients only (the default).
    case `private`
    /// Anyone who can reach the node (behind a proxy that restricts it, for example).
    case `public`

    /// Whether a request may read the metrics.
    /// - Parameters:
    ///   - peer: The connected peer's address; `nil` when there is none (in-process tests, a
    ///     Unix socket), which counts as local.
    ///   - forwarded: Every client address the request's forwarding headers name
    ///     (`X-Forwarded-For`, `X-Real-IP`, `Forwarded: for=`), as written.
    /// - Returns: `true` when exposure is `public`, or `private` and every address is local.
    public func permits(peer: String?, forwarded: [String]) -> Bool {
        switch self {
        case .off: false
        case .public: true
        case .private: (peer.map(Self.isLocal) ?? true) && forwarded.allSatisfy(Self.isLocal)
        }
    }

    /// Whether `address` is loopback or on a private network; anything unparseable is not.
    package static func isLocal(_ address: String) -> Bool {
        var text = address.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("\"") && text.hasSuffix("\"") && text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            text = String(text[text.index(after: text.startIndex)..<close])
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            text = String(text[..<colon])  // IPv4 with a port
        }
        guard let category = AddressPolicy.category(literal: text) else { return false }
        return category == .loopback || category == .privateNetwork
    }
}

/// The kind of IP address, by the IANA special-purpose address registries (RFC 6890 and updates).
///
/// Only `.publicUnicast` is reachable from a federation server without SSRF risk; every other
/// category names a range that is local, internal, reserved or not unicast.
public enum AddressCategory: String, Sendable, Equatable, CaseIterable {
    /// A globally routable unicast address.
    case publicUnicast
    /// `0.0.0.0/8` ("this network", RFC 791) or the IPv6 unspecified address `::`.
    case unspecified
    /// `127.0.0.0/8` or `::1`.
    case loopback
    /// RFC 1918 private networks (`10/8`, `172.16/12`, `192.168/16`), IPv6 unique local
    /// `fc00::/7` (RFC 4193) and deprecated site-local `fec0::/10`.
    case privateNetwork
    /// `100.64.0.0/10`, carrier-grade NAT shared address space (RFC 6598).
    case sharedAddressSpace
    /// `169.254.0.0/16` (including cloud metadata at 169.254.169.254) or `fe80::/10`.
    case linkLocal
    /// `224.0.0.0/4` or `ff00::/8`.
    case multicast
    /// The limited broadcast address `255.255.255.255`.
    case broadcast
    /// Documentation ranges: TEST-NET-1/2/3 (RFC 5737), `2001:db8::/32` (RFC 3849) and
    /// `3fff::/20` (RFC 9637).
    case documentation
    /// `198.18.0.0/15`, benchmarking (RFC 2544).
    case benchmarking
    /// Anything else not globally routable: IETF protocol assignments, `240.0.0.0/4`, 6to4 relay
    /// anycast, IPv6 discard-only, Teredo and ORCHID, deprecated IPv4-compatible addresses, and IPv6
    /// outside `2000::/3`.
    case reserved
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reverse proxies whose `X-Forwarded-For` is believed (`--trusted-proxy`), as address
/// ranges. Behind a proxy every client arrives from the proxy's address, so per-address limits
/// must key on the client the proxy names; from any other peer the header is the client's own
/// claim and is ignored. Loopback is trusted by default (a TLS proxy on the same host).
public struct TrustedProxies: Sendable, Equatable {
    /// One address range: a network address (4 or 16 bytes) and a prefix length.
    public struct Range: Sendable, Equatable, CustomStringConvertible {
        package let network: [UInt8]
        package let prefix: Int

        /// Parses `192.0.2.10`, `10.0.0.0/8`, `::1` or `2001:db8::/32`.
        public init?(_ text: String) {
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let bytes = Self.bytes(of: String(parts[0])) else { return nil }
            let bits = bytes.count * 8
            if parts.count == 2 {
                guard let prefix = Int(parts[1]), (0...bits).contains(prefix) else { return nil }
                self.prefix = prefix
            } else {
                prefix = bits
            }
            network = Self.masked(bytes, prefix: prefix)
        }

        /// Whether `address` (text form) lies in the range; IPv4-mapped IPv6 addresses count as IPv4.
        public func contains(_ address: String) -> Bool {
            guard let bytes = Self.bytes(of: address), bytes.count == network.count else { return false }
            return Self.masked(bytes, prefix: prefix) == network
        }

        public var description: String {
            let address = network.count == 4 ? network.map(String.init).joined(separator: ".") : "IPv6"
            return "\(address)/\(prefix)"
        }

        /// The address's bytes: 4 for IPv4 (also when written as `::ffff:a.b.c.d`), 16 for IPv6.
        package static func bytes(of text: String) -> [UInt8]? {
            let trimmed = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
            var v4 = in_addr()
            if inet_pton(AF_INET, trimmed, &v4) == 1 {
                return withUnsafeBytes(of: &v4) { Array($0) }
            }
            var v6 = in6_addr()
            guard inet_pton(AF_INET6, trimmed, &v6) == 1 else { return nil }
            let bytes = withUnsafeBytes(of: &v6) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff { return Array(bytes[12...]) }
            return bytes
        }

        private static func masked(_ bytes: [UInt8], prefix: Int) -> [UInt8] {
            bytes.enumerated().map { index, byte in
                let keep = min(max(prefix - index * 8, 0), 8)
                return keep == 8 ? byte : byte & UInt8(truncatingIfNeeded: 0xff << (8 - keep))
            }
        }
    }

    /// The trusted ranges.
    public var ranges: [Range]

    /// Loopback only: `127.0.0.0/8` and `::1`.
    public static let loopback = TrustedProxies(ranges: [Range("127.0.0.0/8")!, Range("::1")!])

    /// Trusts `ranges`.
    public init(ranges: [Range]) { self.ranges = ranges }

    /// Parses addresses or CIDR ranges; `nil` when any of them is not one.
    public init?(parsing list: [String]) {
        var ranges: [Range] = []
        for item in list.flatMap({ $0.split(separator: ",") }) {
            let text = item.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            guard let range = Range(text) else { return nil }
            ranges.append(range)
        }
        self.ranges = ranges
    }

    /// Whether `address` is one of the trusted proxies.
    public func contains(_ address: String) -> Bool { ranges.contains { $0.contains(address) } }
}

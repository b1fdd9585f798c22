#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Classifies IP addresses for SSRF protection: which addresses an outgoing federation request may
/// connect to. Pure functions over address bytes (network order); no I/O.
///
/// `CurlHTTPClient` applies it to every address libcurl is about to connect to, after name
/// resolution and on every redirect, so a public name that resolves to a private address is refused.
public enum AddressPolicy {
    /// Whether a connection to an address of this category is allowed.
    /// - Parameters:
    ///   - category: The address's category.
    ///   - allowPrivateAddresses: `true` in test mode, where every address is allowed.
    /// - Returns: `true` when the connection may go ahead.
    public static func permits(_ category: AddressCategory, allowPrivateAddresses: Bool) -> Bool {
        allowPrivateAddresses || category == .publicUnicast
    }

    /// Classifies an IPv4 address.
    /// - Parameter bytes: The four address bytes in network order.
    /// - Returns: The address's category; `.reserved` if `bytes` is not four bytes long.
    public static func category(ipv4 bytes: [UInt8]) -> AddressCategory {
        guard bytes.count == 4 else { return .reserved }
        let (a, b, c) = (bytes[0], bytes[1], bytes[2])
        switch (a, b, c) {
        case (0, _, _): return .unspecified
        case (10, _, _), (172, 16...31, _), (192, 168, _): return .privateNetwork
        case (100, 64...127, _): return .sharedAddressSpace
        case (127, _, _): return .loopback
        case (169, 254, _): return .linkLocal
        case (192, 0, 2), (198, 51, 100), (203, 0, 113): return .documentation
        case (192, 0, 0), (192, 88, 99): return .reserved  // IETF assignments, 6to4 relay anycast
        case (198, 18...19, _): return .benchmarking
        case (224...239, _, _): return .multicast
        case (255, 255, 255) where bytes[3] == 255: return .broadcast
        case (240...255, _, _): return .reserved
        default: return .publicUnicast
        }
    }

    /// Classifies an IPv6 address. Addresses that embed an IPv4 address (IPv4-mapped `::ffff:0:0/96`,
    /// NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) take the category of the embedded address.
    /// - Parameter bytes: The sixteen address bytes in network order.
    /// - Returns: The address's category; `.reserved` if `bytes` is not sixteen bytes long.
    public static func category(ipv6 bytes: [UInt8]) -> AddressCategory {
        guard bytes.count == 16 else { return .reserved }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) {
            return bytes[15] == 0 ? .unspecified : (bytes[15] == 1 ? .loopback : .reserved)
        }
        if let embedded = embeddedIPv4(bytes) { return category(ipv4: embedded) }
        let word0 = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        let word1 = UInt16(bytes[2]) << 8 | UInt16(bytes[3])
        switch word0 {
        case 0xff00...0xffff: return .multicast
        case 0xfe80...0xfebf: return .linkLocal
        case 0xfec0...0xfeff, 0xfc00...0xfdff: return .privateNetwork
        case 0x2001 where word1 == 0x0db8: return .documentation
        case 0x2001 where word1 < 0x0200: return .reserved  // 2001::/23 IETF protocol assignments
        case 0x3fff where word1 < 0x1000: return .documentation
        case 0x2000...0x3fff: return .publicUnicast  // 2000::/3, global unicast (RFC 4291 2.4)
        default: return .reserved  // ::/96 compatible, 100::/64 discard, 64:ff9b:1::/48, unassigned
        }
    }

    /// Classifies an address given as its bytes: four for IPv4, sixteen for IPv6.
    /// - Parameter bytes: The address bytes in network order.
    /// - Returns: The address's category; `.reserved` for any other length.
    public static func category(bytes: [UInt8]) -> AddressCategory {
        bytes.count == 4 ? category(ipv4: bytes) : category(ipv6: bytes)
    }

    /// The usual text form of an address given as its bytes (`127.0.0.1`, `::ffff:127.0.0.1`).
    /// - Parameter bytes: Four (IPv4) or sixteen (IPv6) bytes in network order.
    /// - Returns: The text, or a placeholder naming the length for any other length.
    public static func text(bytes: [UInt8]) -> String {
        guard bytes.count == 4 || bytes.count == 16 else { return "<\(bytes.count)-byte address>" }
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
            bytes.withUnsafeBytes { address in
                guard let start = buffer.baseAddress, inet_ntop(family, address.baseAddress, start, 64) != nil
                else { return "?" }
                return String(cString: start)
            }
        }
    }

    /// Classifies an address written as an IPv4 or IPv6 literal (`"10.0.0.1"`, `"::ffff:127.0.0.1"`).
    /// - Parameter literal: The address text, without brackets or zone.
    /// - Returns: The category, or `nil` when `literal` is not an IP address.
    public static func category(literal: String) -> AddressCategory? {
        bytes(literal: literal).map(category(bytes:))
    }

    /// The network-order bytes of an IPv4 or IPv6 literal: four or sixteen.
    /// - Parameter literal: The address text, without brackets or zone.
    /// - Returns: The bytes, or `nil` when `literal` is not an IP address.
    public static func bytes(literal: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, literal, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// The IPv4 address embedded in an IPv4-mapped, NAT64 well-known-prefix or 6to4 IPv6 address.
    package static func embeddedIPv4(_ bytes: [UInt8]) -> [UInt8]? {
        let mappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]
        let nat64Prefix: [UInt8] = [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0]
        if Array(bytes[0..<12]) == mappedPrefix || Array(bytes[0..<12]) == nat64Prefix {
            return Array(bytes[12..<16])
        }
        if bytes[0] == 0x20 && bytes[1] == 0x02 { return Array(bytes[2..<6]) }  // 6to4, RFC 3056
        return nil
    }
}

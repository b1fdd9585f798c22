import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one spelling of a remote server's name that every domain check, block, allow-list,
/// queue and origin comparison uses: `host` or `host:port`, with the host in lower case, without
/// the trailing dot of a fully qualified name (`evil.example.` is `evil.example`), international
/// names in their ASCII form (`bücher.example` is `xn--bcher-kva.example`, RFC 3492), and the
/// port left out when it is the scheme's default (`https://a.example:443` is `a.example`).
///
/// Two spellings that reach the same server therefore compare equal, so a block of
/// `evil.example` cannot be passed by signing as `https://EVIL.example.:443/users/x`.
public enum HostAuthority {
    /// The authority of `url` (an `http` or `https` URL with a host), normalised; `nil` when
    /// `url` has no usable host.
    public static func of(_ url: String) -> String? {
        guard let components = URLComponents(string: url), let raw = components.percentEncodedHost, !raw.isEmpty,
            let host = host(raw)
        else { return nil }
        guard let port = components.port, port != defaultPort(components.scheme) else { return host }
        return "\(host):\(port)"
    }

    /// A `host` or `host:port` as typed by an admin or taken from a header, normalised (a port is
    /// kept whatever it is: there is no scheme to know the default of); `nil` when unusable.
    public static func normalize(_ authority: String) -> String? {
        let trimmed = authority.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        var (rawHost, port) = (Substring(trimmed), Substring?.none)
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]") else { return nil }
            rawHost = trimmed[...close]
            let rest = trimmed[trimmed.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                port = rest.dropFirst()
            }
        } else if let colon = trimmed.lastIndex(of: ":") {
            (rawHost, port) = (trimmed[..<colon], trimmed[trimmed.index(after: colon)...])
        }
        guard let host = host(String(rawHost)) else { return nil }
        guard let port else { return host }
        guard !port.isEmpty, port.utf8.count <= 5, port.allSatisfy(\.isASCII), let number = Int(port), (1...65535).contains(number)
        else { return nil }
        return "\(host):\(number)"
    }

    /// A bare host name normalised (lower case, no trailing dot, ASCII form); IP addresses in
    /// their usual form (`[2001:db8::1]`, `203.0.113.5` for `3405803781`), IPv6 in brackets.
    /// `nil` for an empty name, an empty label, or characters no name may have.
    public static func host(_ raw: String) -> String? {
        var name = raw.removingPercentEncoding ?? raw
        if !name.unicodeScalars.allSatisfy(\.isASCII) {
            // As the resolver maps them (UTS 46): compatibility forms fold (fullwidth letters),
            // and the ideographic full stops separate labels.
            name = String(String.UnicodeScalarView(name.precomposedStringWithCompatibilityMapping.unicodeScalars.map {
                Self.fullStops.contains($0) ? "." : $0
            }))
        }
        name = name.lowercased()
        if name.hasPrefix("[") {
            guard name.hasSuffix("]"), let address = ipv6(String(name.dropFirst().dropLast())) else { return nil }
            return "[\(address)]"
        }
        if name.hasSuffix(".") { name.removeLast() }
        if let address = ipv4(name) { return address }
        guard !name.isEmpty, name.utf8.count <= 253 else { return nil }
        var labels: [String] = []
        for label in name.split(separator: ".", omittingEmptySubsequences: false) {
            guard !label.isEmpty, let ascii = asciiLabel(String(label)) else { return nil }
            labels.append(ascii)
        }
        return labels.joined(separator: ".")
    }

    /// The ideographic and fullwidth full stops, which resolvers read as dots.
    private static let fullStops: Set<Unicode.Scalar> = ["\u{3002}", "\u{FF0E}", "\u{FF61}"]

    /// `name` as dotted IPv4 when it is an IPv4 address in any form a resolver accepts (one to
    /// four numeric parts, decimal, octal or `0x` hex); `nil` when it is a name.
    private static func ipv4(_ name: String) -> String? {
        let numeric = name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && (part.allSatisfy(\.isASCII) && (part.allSatisfy(\.isNumber) || (part.hasPrefix("0x") && part.dropFirst(2).allSatisfy(\.isHexDigit))))
        }
        var address = in_addr()
        guard numeric, inet_aton(name, &address) != 0 else { return nil }
        return withUnsafeBytes(of: address.s_addr) { $0.map(String.init).joined(separator: ".") }
    }

    /// An IPv6 literal in its usual form (RFC 5952), or `nil` when it is not one.
    private static func ipv6(_ literal: String) -> String? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, literal, &address) == 1 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return String(cString: buffer)
    }

    /// One label in ASCII: as it is when it is ASCII already, else `xn--` and its Punycode.
    private static func asciiLabel(_ label: String) -> String? {
        if label.unicodeScalars.allSatisfy(\.isASCII) {
            // Letters, digits, hyphens and (seen in real names) underscores; nothing that could
            // end the host part of a URL or hide another one.
            let allowed = label.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
            return allowed && label.utf8.count <= 63 ? label : nil
        }
        let scalars = label.precomposedStringWithCanonicalMapping.unicodeScalars
        guard scalars.allSatisfy({ !$0.properties.isWhitespace && $0.properties.generalCategory != .control && $0 != "/" && $0 != "@" && $0 != ":" }),
            let encoded = Punycode.encode(Array(scalars))
        else { return nil }
        let result = "xn--" + encoded
        return result.utf8.count <= 63 ? result : nil
    }

    private static func defaultPort(_ scheme: String?) -> Int? {
        switch scheme?.lowercased() {
        case "https": 443
        case "http": 80
        default: nil
        }
    }
}

/// The Punycode encoder of RFC 3492 (section 6.3), for international domain name labels.
enum Punycode {
    private static let (base, tMin, tMax, skew, damp, initialBias, initialN) = (36, 1, 26, 38, 700, 72, 128)

    /// The Punycode of `input`; `nil` on overflow (a label no DNS name could hold).
    static func encode(_ input: [Unicode.Scalar]) -> String? {
        var output = input.filter(\.isASCII).map { Character($0) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append("-") }
        var (n, delta, bias) = (initialN, 0, initialBias)
        while handled < input.count {
            guard let m = input.map({ Int($0.value) }).filter({ $0 >= n }).min() else { return nil }
            let (product, overflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow, delta <= Int(Int32.max) - product else { return nil }
            delta += product
            n = m
            for scalar in input.map({ Int($0.value) }) {
                if scalar < n { delta += 1 }
                guard scalar == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, handled + 1, handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(output)
    }

    private static func digit(_ value: Int) -> Character {
        Character(Unicode.Scalar(UInt8(value < 26 ? 97 + value : 22 + value)))
    }

    private static func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}

@testable import Core
import Testing

@testable import FedNode

/// The SSRF address classification, over literals of every special-purpose range.
@Suite struct AddressPolicyTests {
    @Test(arguments: [
        ("10.0.0.1", AddressCategory.privateNetwork),
        ("172.16.0.1", .privateNetwork),
        ("172.31.255.255", .privateNetwork),
        ("192.168.1.1", .privateNetwork),
        ("127.0.0.1", .loopback),
        ("127.255.0.9", .loopback),
        ("169.254.169.254", .linkLocal),
        ("100.64.0.1", .sharedAddressSpace),
        ("100.127.255.254", .sharedAddressSpace),
        ("0.0.0.0", .unspecified),
        ("0.1.2.3", .unspecified),
        ("224.0.0.1", .multicast),
        ("239.255.255.250", .multicast),
        ("255.255.255.255", .broadcast),
        ("240.0.0.1", .reserved),
        ("192.0.0.8", .reserved),
        ("192.0.2.1", .documentation),
        ("198.51.100.7", .documentation),
        ("203.0.113.9", .documentation),
        ("198.18.0.1", .benchmarking),
        ("::1", .loopback),
        ("::", .unspecified),
        ("fe80::1", .linkLocal),
        ("febf::1", .linkLocal),
        ("fc00::1", .privateNetwork),
        ("fd12:3456::1", .privateNetwork),
        ("fec0::1", .privateNetwork),
        ("ff02::1", .multicast),
        ("::ffff:127.0.0.1", .loopback),
        ("::ffff:10.1.2.3", .privateNetwork),
        ("::ffff:169.254.169.254", .linkLocal),
        ("64:ff9b::a9fe:a9fe", .linkLocal),
        ("2002:c0a8:0101::1", .privateNetwork),
        ("::127.0.0.1", .reserved),
        ("100::1", .reserved),
        ("2001::1", .reserved),
        ("2001:db8::1", .documentation),
        ("3fff::1", .documentation),
        ("4000::1", .reserved),
    ])
    func refusesNonPublicAddress(literal: String, expected: AddressCategory) {
        let category = AddressPolicy.category(literal: literal)
        #expect(category == expected)
        #expect(!AddressPolicy.permits(expected, allowPrivateAddresses: false))
        #expect(AddressPolicy.permits(expected, allowPrivateAddresses: true))
    }

    @Test(arguments: [
        "8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "172.15.255.255", "100.128.0.1",
        "192.169.0.1", "169.255.0.1", "11.0.0.1", "223.255.255.255", "2606:4700::1111",
        "2a01:4f8::1", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:0808:0808::1", "2001:4860:4860::8888",
    ])
    func allowsPublicAddress(literal: String) {
        let category = AddressPolicy.category(literal: literal)
        #expect(category == .publicUnicast)
        #expect(AddressPolicy.permits(.publicUnicast, allowPrivateAddresses: false))
    }

    @Test(arguments: ["localhost", "example.com", "1.2.3", "256.0.0.1", "[::1]", "", "fe80::1%eth0"])
    func rejectsNonLiterals(text: String) {
        #expect(AddressPolicy.category(literal: text) == nil)
    }

    @Test func malformedByteCountsAreNotPublic() {
        #expect(AddressPolicy.category(ipv4: [8, 8, 8]) == .reserved)
        #expect(AddressPolicy.category(ipv6: [UInt8](repeating: 0x20, count: 15)) == .reserved)
    }
}

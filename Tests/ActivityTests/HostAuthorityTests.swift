import Testing
import Activity

/// Every spelling of one server's name comes out as one authority, so a block or a comparison
/// made on one spelling holds for all of them.
@Suite("Host authority")
struct HostAuthorityTests {
    @Test("URLs: lower case, no trailing dot, no default port, a port kept otherwise", arguments: [
        ("https://Evil.Example./users/x", "evil.example"),
        ("https://evil.example.:443/users/x", "evil.example"),
        ("http://evil.example:80/inbox", "evil.example"),
        ("https://evil.example:8443/inbox", "evil.example:8443"),
        ("http://127.0.0.1:8080/users/a", "127.0.0.1:8080"),
        ("https://[2001:DB8::1]:443/x", "[2001:db8::1]"),
        ("https://bücher.example/users/x", "xn--bcher-kva.example"),
        ("https://MÜNCHEN.example/", "xn--mnchen-3ya.example"),
        ("https://例え.テスト/", "xn--r8jz45g.xn--zckzah"),
        ("https://xn--bcher-kva.example/", "xn--bcher-kva.example"),
        ("https://evil%2Eexample/", "evil.example"),
        ("https://evil%E3%80%82example/u", "evil.example"),
        ("https://%EF%BD%85vil.example/u", "evil.example"),
        ("https://[2001:0DB8:0000::1]/x", "[2001:db8::1]"),
        ("http://3405803781/x", "203.0.113.5"),
        ("http://0x7f.1:8080/x", "127.0.0.1:8080"),
    ])
    func urls(url: String, expected: String) {
        #expect(HostAuthority.of(url) == expected)
    }

    @Test("URLs without a usable host have no authority", arguments: [
        "https:///x", "not a url", "https://a..b/", "https://./", "https://evil .example/", "mailto:a@b.example",
    ])
    func unusable(url: String) {
        #expect(HostAuthority.of(url) == nil)
    }

    @Test("Typed authorities: the same spelling, a port kept as given", arguments: [
        ("Evil.Example.", "evil.example"),
        (" evil.example ", "evil.example"),
        ("evil.example.:8080", "evil.example:8080"),
        ("bücher.example", "xn--bcher-kva.example"),
        ("[::1]:3000", "[::1]:3000"),
    ])
    func authorities(typed: String, expected: String) {
        #expect(HostAuthority.normalize(typed) == expected)
    }

    @Test("Ports that are no port are refused", arguments: ["evil.example:", "evil.example:0", "evil.example:65536", "evil.example:８０"])
    func badPorts(typed: String) {
        #expect(HostAuthority.normalize(typed) == nil)
    }
}

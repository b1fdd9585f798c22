@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import FedNode

@Suite("Sign-in throttling: trusted proxies and failed logins per account")
struct LoginThrottleTests {
    @Test("trusted proxy ranges parse addresses and CIDR ranges of both families")
    func ranges() throws {
        let proxies = try #require(TrustedProxies(parsing: ["10.0.0.0/8, 192.0.2.7", "2001:db8::/32"]))
        #expect(proxies.contains("10.200.3.4"))
        #expect(!proxies.contains("11.0.0.1"))
        #expect(proxies.contains("192.0.2.7"))
        #expect(!proxies.contains("192.0.2.8"))
        #expect(proxies.contains("2001:db8:1::5"))
        #expect(!proxies.contains("2001:db9::5"))
        #expect(proxies.contains("::ffff:10.1.1.1"))
        #expect(!proxies.contains("not an address"))
        #expect(TrustedProxies.loopback.contains("127.0.0.1") && TrustedProxies.loopback.contains("::1"))
        #expect(TrustedProxies(parsing: ["10.0.0.0/33"]) == nil)
        #expect(TrustedProxies(parsing: ["proxy.example"]) == nil)
        #expect(TrustedProxies(parsing: ["10.0.0.0/-1"]) == nil)
    }

    @Test("X-Forwarded-For is believed from trusted proxies only, read from the right")
    func forwardedChain() throws {
        let proxies = try #require(TrustedProxies(parsing: ["127.0.0.1", "10.0.0.0/8"]))
        // A client talking to us directly cannot choose its key.
        #expect(ClientAddress.resolve(peer: "203.0.113.5", forwarded: ["198.51.100.1"], trusting: proxies) == "203.0.113.5")
        // Through two proxies, the client is the right-most untrusted entry...
        #expect(ClientAddress.resolve(peer: "127.0.0.1", forwarded: ["198.51.100.1", "10.0.0.2"], trusting: proxies) == "198.51.100.1")
        // ...and what the client itself put on the left is ignored.
        #expect(ClientAddress.resolve(peer: "10.0.0.9", forwarded: ["6.6.6.6", "198.51.100.1"], trusting: proxies) == "198.51.100.1")
        // With no proxy trusted, the header means nothing.
        #expect(ClientAddress.resolve(peer: "127.0.0.1", forwarded: ["198.51.100.1"], trusting: TrustedProxies(ranges: [])) == "127.0.0.1")
        #expect(ClientAddress.resolve(peer: "127.0.0.1", forwarded: [], trusting: proxies) == "127.0.0.1")
    }

    @Test("repeated failed sign-ins lock the account for a while, from any address, on both login paths")
    func failedLoginsPerAccount() async throws {
        let t = try TestNode.make { $0.rateLimits.failedSignIns = SignInBackoff(threshold: 3) }
        defer { t.remove() }
        _ = try await t.user("alice")
        _ = try await t.user("bob")
        try await t.withClient { client in
            let app = try await client.registerApp()
            func login(_ email: String, _ password: String, from address: String) async throws -> TestResponse {
                try await client.postForm("/oauth/authorize", OAuthTests.authorizeQuery(app) + [("email", email), ("password", password)],
                                          headers: [.init("X-Forwarded-For")!: address])
            }
            for index in 1...3 {
                #expect(try await login("alice@example.test", "guess \(index)", from: "198.51.100.\(index)").status == .unauthorized)
            }
            // Locked now, even with the right password and from a new address.
            let locked = try await login("Alice@Example.test", "correct horse battery", from: "203.0.113.9")
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.init("X-RateLimit-Remaining")!] == "0")
            let wait = try #require(locked.headers[.retryAfter].flatMap(Int.init))
            #expect((1...60).contains(wait), "the first lock lasts a minute")
            let grant = try await client.postForm("/oauth/token", [("grant_type", "password"), ("username", "alice@example.test"),
                                                                    ("password", "correct horse battery"),
                                                                    ("client_id", app.clientId), ("client_secret", app.clientSecret)])
            #expect(grant.status == .tooManyRequests)
            #expect(grant.json?["error"] as? String == "Too many requests")
            #expect(grant.headers[.retryAfter] != nil)
            // Other accounts are not affected.
            #expect(try await login("bob@example.test", "correct horse battery", from: "198.51.100.1").status == .found)
        }
    }

    @Test("a successful sign-in clears earlier failures")
    func successClears() async throws {
        let t = try TestNode.make { $0.rateLimits.failedSignIns = SignInBackoff(threshold: 2) }
        defer { t.remove() }
        _ = try await t.user("alice")
        try await t.withClient { client in
            let app = try await client.registerApp()
            func login(_ password: String) async throws -> HTTPResponse.Status {
                try await client.postForm("/oauth/authorize", OAuthTests.authorizeQuery(app) + [("email", "alice@example.test"), ("password", password)]).status
            }
            #expect(try await login("wrong") == .unauthorized)
            #expect(try await login("correct horse battery") == .found)
            #expect(try await login("wrong") == .unauthorized)
            #expect(try await login("correct horse battery") == .found)
        }
    }
}

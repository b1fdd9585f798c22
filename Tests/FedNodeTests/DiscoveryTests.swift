@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Signatures
import Testing
@testable import FedNode

@Suite("Discovery: WebFinger, host-meta, NodeInfo")
struct DiscoveryTests {
    @Test("WebFinger answers acct: and actor-URL resources with self and profile links")
    func webfinger() async throws {
        let test = try TestNode.make(domain: "127.0.0.1:8081")
        defer { test.remove() }
        _ = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse")
        try await test.withClient { client in
            for resource in ["acct:alice@127.0.0.1:8081", "acct:ALICE@127.0.0.1:8081", "http://127.0.0.1:8081/users/alice"] {
                let encoded = resource.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                try await client.execute(uri: "/.well-known/webfinger?resource=\(encoded)", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType]?.hasPrefix("application/jrd+json") == true)
                    #expect(response.headers[.accessControlAllowOrigin] == "*")
                    let json = try #require(response.json)
                    #expect(json["subject"] as? String == "acct:alice@127.0.0.1:8081")
                    let links = try #require(json["links"] as? [[String: Any]])
                    let selfLink = links.first { $0["rel"] as? String == "self" }
                    #expect(selfLink?["type"] as? String == "application/activity+json")
                    #expect(selfLink?["href"] as? String == "http://127.0.0.1:8081/users/alice")
                    #expect(links.contains { $0["rel"] as? String == "http://webfinger.net/rel/profile-page" })
                }
            }
        }
    }

    @Test("WebFinger: malformed is 400, unknown or foreign is 404, always JSON")
    func webfingerErrors() async throws {
        let test = try TestNode.make()
        defer { test.remove() }
        try await test.withClient { client in
            let cases: [(String, HTTPResponse.Status)] = [
                ("", .badRequest), ("?resource=", .badRequest), ("?resource=acct:", .badRequest),
                ("?resource=acct:%40social.test", .badRequest), ("?resource=mailto:bob@social.test", .badRequest),
                ("?resource=acct:nobody@social.test", .notFound), ("?resource=acct:alice@elsewhere.test", .notFound),
                ("?resource=https://social.test/users/a/b", .notFound),
            ]
            for (query, status) in cases {
                try await client.execute(uri: "/.well-known/webfinger\(query)", method: .get) { response in
                    #expect(response.status == status, "\(query)")
                    #expect(response.json?["error"] is String, "\(query)")
                }
            }
        }
    }

    @Test("host-meta points at the WebFinger template")
    func hostMeta() async throws {
        let test = try TestNode.make()
        defer { test.remove() }
        try await test.withClient { client in
            try await client.execute(uri: "/.well-known/host-meta", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("application/xrd+xml") == true)
                #expect(response.text.contains("template=\"https://social.test/.well-known/webfinger?resource={uri}\"")
                    || response.text.contains("template=\"http://social.test/.well-known/webfinger?resource={uri}\""))
            }
        }
    }

    @Test("NodeInfo links 2.0 and 2.1; the documents count users and name the software")
    func nodeInfo() async throws {
        let test = try TestNode.make()
        defer { test.remove() }
        _ = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse")
        _ = try await test.node.accounts.create(username: "bob", email: "bob@example.com", password: "correct horse")
        try await test.withClient { client in
            try await client.execute(uri: "/.well-known/nodeinfo", method: .get) { response in
                let links = try #require(response.json?["links"] as? [[String: Any]])
                #expect(links.compactMap { $0["rel"] as? String } == [
                    "http://nodeinfo.diaspora.software/ns/schema/2.0", "http://nodeinfo.diaspora.software/ns/schema/2.1",
                ])
                #expect(links.last?["href"] as? String == "\(test.node.urls.base)/nodeinfo/2.1")
            }
            for version in ["2.0", "2.1"] {
                try await client.execute(uri: "/nodeinfo/\(version)", method: .get) { response in
                    #expect(response.status == .ok)
                    let json = try #require(response.json)
                    #expect(json["version"] as? String == version)
                    let software = try #require(json["software"] as? [String: Any])
                    #expect(software["name"] as? String == "fednode")
                    #expect(software["version"] as? String == NodeConfiguration.softwareVersion)
                    #expect(json["protocols"] as? [String] == ["activitypub"])
                    #expect(json["openRegistrations"] as? Bool == true)
                    let usage = try #require(json["usage"] as? [String: Any])
                    #expect((usage["users"] as? [String: Any])?["total"] as? Int == 2)
                    #expect(usage["localPosts"] as? Int == 0)
                }
            }
        }
    }

    @Test("healthz answers ok, unknown paths a JSON 404")
    func health() async throws {
        let test = try TestNode.make()
        defer { test.remove() }
        try await test.withClient { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.json?["status"] as? String == "ok")
            }
            try await client.execute(uri: "/no/such/thing", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.json?["error"] is String)
            }
        }
    }
}

@testable import Core
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Signatures
import Storage
import Testing
@testable import FedNode

/// `/api/v1/push/subscription`: create, read, change, delete, validation, scope, and the pushes
/// a notification queues for the subscriptions whose alerts and policy want it.
@Suite struct PushSubscriptionTests {
    /// A browser-like subscription: a fresh P-256 key and auth secret.
    struct Keys {
        let p256dh = Base64URL.encode(try! P256Key().publicKey)
        let auth = Base64URL.encode(randomBytes(16))
    }

    static func form(endpoint: String = "https://push.example.net/wpush/abc", keys: Keys = Keys(), extra: String = "") -> String {
        let parts = ["subscription[endpoint]=\(endpoint)", "subscription[keys][p256dh]=\(keys.p256dh)",
                     "subscription[keys][auth]=\(keys.auth)"]
        return parts.map { $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "=-_.")))! }
            .joined(separator: "&") + extra
    }

    @Test func createsReadsChangesAndDeletesTheTokensSubscription() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let serverKey = Base64URL.encode(t.node.vapidKey.publicKey)
        try await t.withClient { (client: any TestClientProtocol) async throws in
            let created = try await client.api(.post, "/api/v1/push/subscription", token: token,
                                               form: Self.form(extra: "&data[alerts][favourite]=true&data[alerts][follow]=1&data[policy]=followed"))
            #expect(created.status == .ok)
            let entity = try #require(created.json)
            #expect(entity["endpoint"] as? String == "https://push.example.net/wpush/abc")
            #expect(entity["server_key"] as? String == serverKey)
            #expect(entity["policy"] as? String == "followed")
            #expect(entity["standard"] as? Bool == true)
            #expect(entity["id"] is String)
            let alerts = try #require(entity["alerts"] as? [String: Bool])
            #expect(alerts["favourite"] == true && alerts["follow"] == true && alerts["mention"] == false)
            #expect(alerts.keys.contains("admin.sign_up") && alerts.keys.contains("follow_request"))

            let shown = try await client.api(.get, "/api/v1/push/subscription", token: token)
            #expect(shown.json?["id"] as? String == entity["id"] as? String)

            let changed = try await client.api(.put, "/api/v1/push/subscription", token: token,
                                               json: ["data": ["alerts": ["mention": true, "favourite": false], "policy": "all"]])
            #expect(changed.status == .ok)
            #expect(changed.json?["policy"] as? String == "all")
            let changedAlerts = try #require(changed.json?["alerts"] as? [String: Bool])
            #expect(changedAlerts["mention"] == true && changedAlerts["favourite"] == false)

            #expect(try await client.api(.delete, "/api/v1/push/subscription", token: token).status == .ok)
            #expect(try await client.api(.get, "/api/v1/push/subscription", token: token).status == .notFound)
            #expect(try await client.api(.put, "/api/v1/push/subscription", token: token, json: ["data": ["policy": "all"]]).status == .notFound)
        }
    }

    @Test func refusesBadEndpointsKeysPoliciesAndTokensWithoutPush() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (_, readOnly) = try await t.user("bob", scopes: "read write")
        let keys = Keys()
        try await t.withClient { (client: any TestClientProtocol) async throws in
            #expect(try await Self.post(client, Self.form(endpoint: "http://push.example.net/x"), token) == .unprocessableContent)
            #expect(try await Self.post(client, Self.form(endpoint: "not a url"), token) == .unprocessableContent)
            #expect(try await Self.post(client, Self.form(keys: Keys()), token) == .ok)
            let shortAuth = "subscription[endpoint]=https://p.example/x&subscription[keys][p256dh]=\(keys.p256dh)&subscription[keys][auth]=AAAA"
            #expect(try await Self.post(client, shortAuth, token) == .unprocessableContent)
            let offCurve = "subscription[endpoint]=https://p.example/x&subscription[keys][p256dh]=BA\(String(repeating: "A", count: 85))&subscription[keys][auth]=\(keys.auth)"
            #expect(try await Self.post(client, offCurve, token) == .unprocessableContent)
            #expect(try await Self.post(client, Self.form(extra: "&data[policy]=everyone"), token) == .unprocessableContent)
            #expect(try await Self.post(client, Self.form(), readOnly) == .forbidden)
            #expect(try await client.api(.get, "/api/v1/push/subscription", token: readOnly).status == .forbidden)
            #expect(try await client.api(.get, "/api/v1/push/subscription").status == .unauthorized)
            // Test mode lets pushes go to a loopback push service over http.
            #expect(try await Self.post(client, Self.form(endpoint: "http://127.0.0.1:9/push"), token) == .ok)
        }
    }

    static func post(_ client: any TestClientProtocol, _ form: String, _ token: String) async throws -> HTTPResponse.Status {
        try await client.api(.post, "/api/v1/push/subscription", token: token, form: form).status
    }

    @Test func aNotificationQueuesAPushOnlyWhereAlertsAndPolicyAllowIt() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        let (bob, _) = try await t.user("bob")
        let (carol, _) = try await t.user("carol")
        let post = try await t.node.posts.create(.init(text: "Morning light"), by: alice)
        try await t.withClient { (client: any TestClientProtocol) async throws in
            let form = Self.form(extra: "&data[alerts][favourite]=true&data[policy]=followed")
            #expect(try await client.api(.post, "/api/v1/push/subscription", token: token, form: form).status == .ok)
        }
        func queued() async throws -> Int { try await t.node.database.read { db in try db.pushSubscriptions.queuedCount() } }
        try await t.node.interactions.like(post.id, by: bob)  // alice does not follow bob: policy says no
        #expect(try await queued() == 0)
        try await t.node.interactions.follow(carol, by: alice)
        try await t.node.interactions.like(post.id, by: carol)  // followed, favourite enabled
        #expect(try await queued() == 1)
        try await t.node.interactions.follow(alice, by: carol)  // follow alerts are off
        #expect(try await queued() == 1)
        _ = bob
    }

    @Test func revokingTheTokenRemovesItsSubscription() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await t.withClient { (client: any TestClientProtocol) async throws in
            #expect(try await client.api(.post, "/api/v1/push/subscription", token: token, form: Self.form()).status == .ok)
        }
        let hash = TokenSecret.hash(token)
        let left = try await t.node.database.write { db -> PushSubscription? in
            var row = try #require(try db.oauth.token(forHash: hash))
            let before = try db.pushSubscriptions.find(tokenId: row.id)
            #expect(before != nil)
            row.revokedAt = Date()
            try db.oauth.update(row)
            return try db.pushSubscriptions.find(tokenId: row.id)
        }
        #expect(left == nil)
    }

    @Test func theVAPIDKeyIsAdvertisedAndSurvivesARestart() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        let key = Base64URL.encode(t.node.vapidKey.publicKey)
        #expect(Base64URL.decode(key)?.count == 65)
        try await t.withClient { (client: any TestClientProtocol) async throws in
            let instance = try await client.api(.get, "/api/v2/instance")
            let vapid = (instance.json?["configuration"] as? [String: Any])?["vapid"] as? [String: Any]
            #expect(vapid?["public_key"] as? String == key)
            let app = try await client.api(.post, "/api/v1/apps", json: ["client_name": "Pusher", "redirect_uris": "urn:ietf:wg:oauth:2.0:oob"])
            #expect(app.json?["vapid_key"] as? String == key)
        }
        let reopened = try Node(configuration: t.node.configuration, logger: TestNode.logger)
        #expect(reopened.vapidKey.publicKey == t.node.vapidKey.publicKey)
    }
}

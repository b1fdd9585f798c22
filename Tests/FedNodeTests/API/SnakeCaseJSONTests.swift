import Activity
@testable import Core
import Foundation
import HummingbirdTesting
import Testing
@testable import FedNode

/// The client API's JSON writer gives what `JSONEncoder` with snake_case keys gives
/// (`APIResponse.encoder()`): compared value for value, parsed, on made-up and on real entities.
@Suite("Client API JSON")
struct SnakeCaseJSONTests {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// An object with the given keys (values are their positions).
    private struct Keys: Encodable {
        let names: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyKey.self)
            for (index, name) in names.enumerated() { try container.encode(index, forKey: AnyKey(stringValue: name)) }
        }
    }

    private enum Kind: String, Codable { case photoPost }

    /// Every kind of value a container can hold, and the types `JSONEncoder` treats specially.
    private struct Everything: Encodable {
        var plainText = "caption"
        var escapedText = "quote \" backslash \\ slash / tab \t newline \n cr \r bell \u{07} del \u{7F} nul \u{0}"
        var unicodeText = "Zoë 🐈‍⬛ 写真 \u{2028} end"
        var emptyText = ""
        var smallDouble = 0.1
        var wholeDouble = 3.0
        var negativeZero = -0.0
        var hugeDouble = 1e300
        var tinyDouble = 5e-324
        var float: Float = 1.5
        var intMin = Int.min
        var uintMax = UInt64.max
        var int8: Int8 = -8
        var uint16: UInt16 = 16
        var flag = true
        var absent: String? = nil
        var present: String? = "here"
        @Nullable var nullable: String?
        @Nullable var nullableSet: Int? = 4
        var url = URL(string: "https://photos.example/@alice/1?x=1&y=/z")!
        var data = Data([0, 1, 2, 250, 255])
        var decimal = Decimal(string: "12.5")!
        var date = Date(timeIntervalSinceReferenceDate: 812_345_678.25)
        var stringKeyed: [String: Int] = ["apiVersionURL": 2, "already_snake": 1]
        var intKeyed: [Int: String] = [3: "three", 1: "one"]
        var optionals: [String?] = ["a", nil, "c"]
        var nested: [[Int]] = [[1, 2], [], [3]]
        var kind = Kind.photoPost
        var kinds: Set<Kind> = [.photoPost]
        var emptyObject = Empty()
        var someURLs: [URL] = [URL(string: "https://a.example/")!]

        struct Empty: Encodable {}
    }

    /// Writes one key through a nested container, which the single pass does not follow.
    private struct Nested: Encodable {
        enum Keys: String, CodingKey { case outerKey, innerValue }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .outerKey)
            try container.encode(1, forKey: .innerValue)
            try inner.encode(2, forKey: .innerValue)
        }
    }

    private func foundation(_ value: some Encodable) throws -> JSONValue {
        try JSONValue.parse(APIResponse.encoder().encode(value))
    }

    private func ours(_ value: some Encodable) throws -> JSONValue {
        try JSONValue.parse(Data(APISnakeCaseJSON.encode(value)))
    }

    @Test("keys are converted to snake case as JSONEncoder converts them")
    func keys() throws {
        let names = [
            "id", "inReplyToId", "myURLProperty", "URL", "aB", "ABc", "a1B", "someHTML2Text", "_leadingUnderscore", "trailing_",
            "x", "", "already_snake", "fooBAR", "visibleInPicker", "ÉtéÀVenir", "naïveKeyÜber", "quote\"Key", "ǅungla", "X1Y2z3",
        ]
        let value = Keys(names: names)
        #expect(try ours(value) == (try foundation(value)))
        #expect(String(decoding: try APISnakeCaseJSON.encode(Keys(names: ["myURLProperty"])), as: UTF8.self) == #"{"my_url_property":0}"#)
    }

    @Test("values, escapes, numbers and the specially treated types come out as JSONEncoder writes them")
    func values() throws {
        let value = Everything()
        #expect(try ours(value) == (try foundation(value)))
        #expect(try ours([value, value]) == (try foundation([value, value])))
        let text = String(decoding: try APISnakeCaseJSON.encode(value), as: UTF8.self)
        #expect(text.contains(#""whole_double":3,"#))
        #expect(text.contains(#""url":"https://photos.example/@alice/1?x=1&y=/z""#))
        #expect(text.contains(#""data":"AAEC+v8=""#))
        #expect(text.contains(#""api_versions_url""#) == false && text.contains(#""apiVersionURL":2"#))
    }

    @Test("a non-finite number is refused, and a value that encodes nothing is {}, as with JSONEncoder")
    func refusedAndEmpty() throws {
        #expect(throws: EncodingError.self) { try APISnakeCaseJSON.encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try APIResponse.encoder().encode([Double.nan]) }
        #expect(String(decoding: try APISnakeCaseJSON.encode(Everything.Empty()), as: UTF8.self) == "{}")
        #expect(String(decoding: try APIResponse.encoder().encode(Everything.Empty()), as: UTF8.self) == "{}")
        #expect(String(decoding: try APISnakeCaseJSON.encode([Everything.Empty()]), as: UTF8.self) == "[{}]")
        #expect(try ours([Everything.Empty()]) == (try foundation([Everything.Empty()])))
    }

    @Test("an entity holding a nested container is written by JSONEncoder instead")
    func nestedContainers() throws {
        #expect(throws: APISnakeCaseJSON.Unsupported.self) { try APISnakeCaseJSON.encode(Nested()) }
        #expect(try JSONValue.parse(Data(APIResponse.bytes(Nested()))) == (try foundation(Nested())))
    }

    @Test("real responses (statuses with photos, mentions, tags and boosts; accounts; notifications; the instance) match JSONEncoder's")
    func realEntities() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, alice) = try await t.user("alice")
        let (_, bob) = try await t.user("bob")
        try await t.withClient { client async throws in
            let media = try await StatusFixtures.uploadedMedia(client, token: alice, description: "A \"harbour\" at dawn\n/ tide")
            let id = try await StatusFixtures.post(client, token: alice, "Morning @bob #boats #Harbour https://example.com/a?b=c",
                                                   extra: ["media_ids": [media], "spoiler_text": "bright ☀️", "language": "en"])
            #expect(try await client.api(.post, "/api/v1/accounts/\(try await accountId(client, token: alice))/follow", token: bob).status == .ok)
            #expect(try await client.api(.post, "/api/v1/statuses/\(id)/favourite", token: bob).status == .ok)
            #expect(try await client.api(.post, "/api/v1/statuses/\(id)/reblog", token: bob).status == .ok)
            _ = try await StatusFixtures.post(client, token: bob, "@alice lovely", extra: ["in_reply_to_id": id])

            try await same([APIStatus].self, client, "/api/v1/timelines/home", token: bob)
            try await same([APIStatus].self, client, "/api/v1/timelines/public")
            try await same(APIStatus.self, client, "/api/v1/statuses/\(id)", token: alice)
            try await same([APINotification].self, client, "/api/v1/notifications", token: alice)
            try await same(APIAccount.self, client, "/api/v1/accounts/verify_credentials", token: alice)
            try await same([APIRelationship].self, client, "/api/v1/accounts/relationships?id[]=1", token: bob)
            try await same(APIInstance.self, client, "/api/v2/instance")
        }
    }

    private func accountId(_ client: any TestClientProtocol, token: String) async throws -> String {
        try await client.api(.get, "/api/v1/accounts/verify_credentials", token: token).entity(APIAccount.self).id
    }

    /// The response of `path` against its entity decoded and written again by `JSONEncoder`.
    private func same<T: Codable>(_ type: T.Type, _ client: any TestClientProtocol, _ path: String, token: String? = nil) async throws {
        let response = try await client.api(.get, path, token: token)
        #expect(response.status == .ok, "\(path)")
        let body = Data(buffer: response.body)
        let entity = try APIResponse.decoder().decode(type, from: body)
        #expect(try JSONValue.parse(body) == (try foundation(entity)), "\(path)")
    }
}

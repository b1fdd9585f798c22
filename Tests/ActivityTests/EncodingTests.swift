import Foundation
import Testing
import Activity

@Suite("Encoding")
struct EncodingTests {
    /// A photo post as FedNode federates it.
    static func photoPost() throws -> ASObject {
        let author = "https://fednode.example/users/carol"
        let photo = ASObject(
            type: "Image", name: "A heron on a post", mediaType: "image/jpeg",
            url: "https://fednode.example/media/7261/original.jpg", width: 1920, height: 1080,
            blurhash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj", focalPoint: [0.5, -0.25])
        let note = ASObject(
            id: "\(author)/statuses/7261052318515200", type: "Note",
            to: [ActivityStreams.publicAddress], cc: ["\(author)/followers", "https://mastodon.example/users/alice"],
            attributedTo: author, summary: nil, content: "<p>Morning <a href=\"https://fednode.example/tags/birds\" class=\"mention hashtag\" rel=\"tag\">#<span>birds</span></a></p>",
            contentMap: ["en": "<p>Morning</p>"], url: "https://fednode.example/@carol/7261052318515200",
            inReplyTo: "https://mastodon.example/users/alice/statuses/1",
            published: try date("2024-11-26T09:14:03Z"), sensitive: false, attachment: [photo],
            tag: [ASObject(type: "Hashtag", name: "#birds", href: "https://fednode.example/tags/birds"),
                  ASObject(type: "Mention", name: "@alice@mastodon.example", href: "https://mastodon.example/users/alice")],
            replies: .object(ASObject(id: "\(author)/statuses/7261052318515200/replies", type: "OrderedCollection", totalItems: 0)))
        return ASObject(
            id: "\(author)/statuses/7261052318515200/activity", type: "Create",
            context: [.string(ActivityStreams.contextURL), ["sensitive": "as:sensitive", "blurhash": "toot:blurhash"]],
            actor: .id(author), object: .object(note), to: note.to, cc: note.cc, published: note.published)
    }

    static func actor() -> ASObject {
        let id = "https://fednode.example/users/carol"
        return ASObject(
            id: id, type: "Person", context: [.string(ActivityStreams.contextURL), .string(ActivityStreams.securityContextURL)],
            name: "Carol", summary: "<p>birds</p>", url: "https://fednode.example/@carol",
            published: Date(timeIntervalSince1970: 1_700_000_000),
            attachment: [ASObject(type: "PropertyValue", name: "Site", value: "https://carol.example")],
            icon: ASObject(type: "Image", mediaType: "image/png", url: "https://fednode.example/avatars/carol.png"),
            preferredUsername: "carol", inbox: "\(id)/inbox", outbox: "\(id)/outbox",
            followers: "\(id)/followers", following: "\(id)/following",
            endpoints: ASEndpoints(sharedInbox: "https://fednode.example/inbox"),
            publicKey: ASPublicKey(id: "\(id)#main-key", owner: id, publicKeyPem: "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----\n"),
            manuallyApprovesFollowers: false, discoverable: true, indexable: false,
            featured: "\(id)/collections/featured")
    }

    @Test func builtActivityRoundTrips() throws {
        let create = try Self.photoPost()
        #expect(try ASObject.decode(from: create.encoded()) == create)
    }

    @Test func builtActorRoundTrips() throws {
        let actor = Self.actor()
        #expect(try ASObject.decode(from: actor.encoded()) == actor)
    }

    @Test func collectionPageRoundTripsWithItsItems() throws {
        let page = ASObject(
            id: "https://fednode.example/users/carol/outbox?page=true", type: "OrderedCollectionPage",
            next: .id("https://fednode.example/users/carol/outbox?page=true&max_id=7261"),
            partOf: "https://fednode.example/users/carol/outbox",
            items: [.id("https://fednode.example/users/carol/statuses/1"),
                    .object(ASObject(id: "https://fednode.example/users/carol/statuses/2/activity", type: "Announce",
                                     actor: .id("https://fednode.example/users/carol"), object: .id("https://a.example/3")))])
        let json = try JSONValue.parse(page.encoded())
        #expect(json["orderedItems"]?.arrayValue?.count == 2)
        #expect(json["items"] == nil)
        #expect(try ASObject.decode(from: page.encoded()) == page)
    }

    @Test func unorderedCollectionsWriteItems() throws {
        let collection = ASObject(type: "Collection", totalItems: 0, items: [])
        let json = try JSONValue.parse(collection.encoded())
        #expect(json["items"] == [])
        #expect(json["orderedItems"] == nil)
    }

    @Test func slashesAreNotEscapedAndIntegersHaveNoFraction() throws {
        let text = try #require(String(data: try Self.photoPost().encoded(), encoding: .utf8))
        #expect(text.contains("\"https://fednode.example/users/carol\""))
        #expect(!text.contains("\\/"))
        #expect(text.contains("\"width\":1920"))
        #expect(text.contains("\"totalItems\":0"))
        #expect(!text.contains("1920.0"))
        #expect(text.contains("\"focalPoint\":[0.5,-0.25]"))
    }

    @Test func nilsAndEmptyListsAreLeftOut() throws {
        let follow = ASObject(id: "https://fednode.example/follows/1", type: "Follow",
                              actor: .id("https://fednode.example/users/carol"), object: .id("https://mastodon.example/users/alice"))
        let json = try #require(try JSONValue.parse(follow.encoded()).objectValue)
        #expect(Set(json.keys) == ["id", "type", "actor", "object"])
        #expect(json["type"] == "Follow")
    }

    @Test func severalTypesEncodeAsAnArray() throws {
        var object = ASObject(type: "Note")
        object.types = ["Note", "http://schema.org/Article"]
        #expect(try JSONValue.parse(object.encoded())["type"] == ["Note", "http://schema.org/Article"])
    }

    @Test func datesEncodeAsUTCISO8601() throws {
        let note = ASObject(type: "Note", published: try date("2024-11-26T10:14:03+01:00"))
        #expect(try JSONValue.parse(note.encoded())["published"] == "2024-11-26T09:14:03Z")
    }

    @Test func extraMembersAreWrittenBackButKnownOnesWin() throws {
        var note = ASObject(id: "https://fednode.example/notes/1", type: "Note")
        note.extra = ["commentsEnabled": true, "id": "https://evil.example/spoof"]
        let json = try JSONValue.parse(note.encoded())
        #expect(json["commentsEnabled"] == true)
        #expect(json["id"] == "https://fednode.example/notes/1")
    }

    @Test func decodedFixtureSurvivesReencoding() throws {
        let original = try TestFiles.object("mastodon-create-note.json")
        let again = try ASObject.decode(from: original.encoded())
        #expect(again == original)
        #expect(again.object?.object?.extra["conversation"] != nil)
    }
}

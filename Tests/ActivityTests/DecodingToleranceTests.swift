import Foundation
import Testing
import Activity

@Suite("Tolerant decoding")
struct DecodingToleranceTests {
    @Test(arguments: [
        #"[{"type": "Note"}]"#, #""Note""#, "42", "null", "true",
    ])
    func nonObjectTopLevelIsRejected(json: String) {
        #expect(throws: ActivityError.notAnObject) { try ASObject.decode(json) }
    }

    @Test(arguments: [
        #"{"id": "https://a.example/1"}"#, #"{"type": 5}"#, #"{"type": []}"#, #"{"type": ""}"#, #"{"type": null}"#,
    ])
    func missingTypeIsRejected(json: String) {
        #expect(throws: ActivityError.missingType) { try ASObject.decode(json) }
    }

    @Test(arguments: ["", "{", "{\"type\": \"Note\"", "{\"type\" \"Note\"}", "{'type': 'Note'}", "<html>"])
    func invalidJSONIsRejected(json: String) {
        #expect(throws: ActivityError.invalidJSON) { try ASObject.decode(json) }
    }

    @Test("a Flag's object list keeps every id, as Mastodon sends an account and its posts; a single object keeps none")
    func flagObjectList() throws {
        let flag = try ASObject.decode(#"""
            {"@context": "https://www.w3.org/ns/activitystreams", "id": "https://m.example/0b4e", "type": "Flag",
             "actor": "https://m.example/actor", "content": "spam",
             "object": ["https://n.example/users/bob", "https://n.example/users/bob/statuses/1", {"id": "https://n.example/users/bob/statuses/2"}, 7]}
            """#)
        #expect(flag.object?.id == "https://n.example/users/bob")
        #expect(flag.objectIds == ["https://n.example/users/bob", "https://n.example/users/bob/statuses/1", "https://n.example/users/bob/statuses/2"])
        #expect(try ASObject.decode(#"{"type": "Like", "object": "https://n.example/p/1"}"#).objectIds.isEmpty)
        let built = ASObject(id: "https://a.example/f/1", type: "Flag", extra: ["object": .array([.string("https://n.example/users/bob")])])
        #expect(try ASObject.decode(from: built.encoded()).objectIds == ["https://n.example/users/bob"], "a list in extra is written")
    }

    @Test func bytesThatAreNotUTF8AreRejected() {
        #expect(throws: ActivityError.invalidJSON) { try ASObject.decode(from: Data([0x7B, 0xFF, 0xFE, 0x7D])) }
    }

    @Test func deeplyNestedJSONIsRejectedBeforeParsing() {
        let json = "{\"type\": \"Note\", \"x\": " + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}"
        #expect(throws: ActivityError.tooDeep(limit: JSONLimits.federation.depth)) { try ASObject.decode(json) }
    }

    @Test func typeMayBeAnArray() throws {
        let object = try ASObject.decode(#"{"type": ["Note", "http://schema.org/Article"]}"#)
        #expect(object.types == ["Note", "http://schema.org/Article"])
        #expect(object.type == "Note")
        #expect(object.hasType("http://schema.org/Article"))
    }

    @Test func unknownFieldsAreKeptAsExtraAndDoNotDisturb() throws {
        let note = try ASObject.decode("""
        {"type": "Note", "content": "<p>hi</p>", "quoteUrl": "https://a.example/2",
         "commentsEnabled": false, "nested": {"deep": [1, 2.5, null]}}
        """)
        #expect(note.content == "<p>hi</p>")
        #expect(note.extra["quoteUrl"] == "https://a.example/2")
        #expect(note.extra["commentsEnabled"] == false)
        #expect(note.extra["nested"]?["deep"] == [1, 2.5, nil])
        #expect(note.extra["content"] == nil)
    }

    @Test func wrongTypedOptionalFieldsBecomeAbsent() throws {
        let note = try ASObject.decode("""
        {"type": "Note", "id": 17, "published": 1732612443, "updated": "last tuesday",
         "sensitive": "yes", "width": "wide", "height": true, "attachment": 5, "tag": true,
         "endpoints": "https://a.example/inbox", "publicKey": 3, "icon": 7, "image": false,
         "to": 5, "cc": [1, "https://a.example/users/x/followers", null], "inReplyTo": 9,
         "url": 4, "contentMap": "en", "focalPoint": ["left", 0], "totalItems": "many",
         "orderedItems": 12, "actor": 5, "object": false, "name": ["x"], "manuallyApprovesFollowers": "no"}
        """)
        #expect(note.id == nil)
        #expect(note.published == nil)
        #expect(note.updated == nil)
        #expect(note.sensitive == nil)
        #expect(note.width == nil && note.height == nil)
        #expect(note.attachment.isEmpty && note.tag.isEmpty)
        #expect(note.endpoints == nil && note.publicKey == nil)
        #expect(note.icon == nil && note.image == nil)
        #expect(note.to.isEmpty)
        #expect(note.cc == ["https://a.example/users/x/followers"])
        #expect(note.inReplyTo == nil && note.url == nil && note.contentMap == nil)
        #expect(note.focalPoint == nil && note.totalItems == nil && note.items == nil)
        #expect(note.actor == nil && note.object == nil && note.name == nil)
        #expect(note.manuallyApprovesFollowers == nil)
    }

    @Test func contextInItsThreeForms() throws {
        let string = try ASObject.decode(#"{"@context": "https://www.w3.org/ns/activitystreams", "type": "Note"}"#)
        #expect(string.context == .string(ActivityStreams.contextURL))
        let array = try ASObject.decode("""
        {"@context": ["https://www.w3.org/ns/activitystreams", {"toot": "http://joinmastodon.org/ns#"}], "type": "Note"}
        """)
        #expect(array.context == [.string(ActivityStreams.contextURL), ["toot": "http://joinmastodon.org/ns#"]])
        let object = try ASObject.decode(#"{"@context": {"@vocab": "https://www.w3.org/ns/activitystreams#"}, "type": "Note"}"#)
        #expect(object.context?["@vocab"] == "https://www.w3.org/ns/activitystreams#")
        let none = try ASObject.decode(#"{"type": "Note"}"#)
        #expect(none.context == nil)
    }

    @Test func addressingAsStringArrayOrEmbeddedObjects() throws {
        let single = try ASObject.decode(#"{"type": "Note", "to": "https://a.example/users/x"}"#)
        #expect(single.to == ["https://a.example/users/x"])
        let list = try ASObject.decode(#"{"type": "Note", "to": ["https://a.example/users/x", "https://b.example/users/y"]}"#)
        #expect(list.to == ["https://a.example/users/x", "https://b.example/users/y"])
        let embedded = try ASObject.decode(#"{"type": "Note", "bcc": {"type": "Person", "id": "https://a.example/users/x"}}"#)
        #expect(embedded.bcc == ["https://a.example/users/x"])
        #expect(embedded.to.isEmpty && embedded.audience.isEmpty)
    }

    @Test func actorAndObjectAsArraysTakeTheFirst() throws {
        let like = try ASObject.decode("""
        {"type": "Like", "actor": [{"type": "Person", "id": "https://a.example/users/x"}, "https://b.example/users/y"],
         "object": ["https://c.example/notes/1", "https://c.example/notes/2"]}
        """)
        #expect(like.actor?.id == "https://a.example/users/x")
        #expect(like.actor?.object?.type == "Person")
        #expect(like.object == .id("https://c.example/notes/1"))
    }

    @Test func publicAddressInEveryForm() throws {
        for address in [ActivityStreams.publicAddress, "as:Public", "Public", "http://www.w3.org/ns/activitystreams#Public"] {
            let note = try ASObject.decode(#"{"type": "Note", "cc": "\#(address)"}"#)
            #expect(note.isPublic, "\(address)")
        }
        let followersOnly = try ASObject.decode(#"{"type": "Note", "to": "https://a.example/users/x/followers"}"#)
        #expect(!followersOnly.isPublic)
        #expect(!ActivityStreams.isPublic("https://www.w3.org/ns/activitystreams#public"))
        #expect(!ActivityStreams.isPublic("https://evil.example/#Public"))
    }

    @Test func iconAsBareURLOrArray() throws {
        let bare = try ASObject.decode(#"{"type": "Person", "icon": "https://a.example/avatar.png"}"#)
        #expect(bare.icon?.url == "https://a.example/avatar.png")
        #expect(bare.icon?.type == "Image")
        let array = try ASObject.decode("""
        {"type": "Person", "image": [{"type": "Image", "url": "https://a.example/h1.png"}, {"type": "Image", "url": "https://a.example/h2.png"}]}
        """)
        #expect(array.image?.url == "https://a.example/h1.png")
    }

    @Test func urlAsLinkObject() throws {
        let note = try ASObject.decode(#"{"type": "Note", "url": {"type": "Link", "href": "https://a.example/@x/1", "mediaType": "text/html"}}"#)
        #expect(note.url == "https://a.example/@x/1")
    }

    @Test func keyArrayPrefersTheRSAKey() throws {
        let rsa = try #require(try TestFiles.object("mastodon-person.json").publicKey?.publicKeyPem)
        let ed25519 = "-----BEGIN PUBLIC KEY-----\\nMCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=\\n-----END PUBLIC KEY-----\\n"
        let rsaEscaped = rsa.replacingOccurrences(of: "\n", with: "\\n")
        let actor = try ASObject.decode("""
        {"type": "Person", "id": "https://a.example/users/x", "publicKey": [
          {"id": "https://a.example/users/x#ed25519-key", "owner": "https://a.example/users/x", "publicKeyPem": "\(ed25519)"},
          {"id": "https://a.example/users/x#main-key", "publicKeyPem": "\(rsaEscaped)"}]}
        """)
        #expect(actor.publicKey?.id == "https://a.example/users/x#main-key")
        // No owner on the key: the actor owns it.
        #expect(actor.publicKey?.owner == "https://a.example/users/x")
    }

    @Test func contentMapStandsInForMissingContent() throws {
        let note = try ASObject.decode(#"{"type": "Note", "contentMap": {"fr": "<p>bonjour</p>", "de": "<p>hallo</p>"}}"#)
        #expect(note.content == nil)
        #expect(note.contentMap?["fr"] == "<p>bonjour</p>")
        #expect(note.effectiveContent == "<p>hallo</p>")
    }

    @Test func codableConformanceUsesTheSameRules() throws {
        struct Envelope: Codable { var activity: ASObject }
        let envelope = try JSONDecoder().decode(Envelope.self, from: Data(#"{"activity": {"type": "Like", "to": "https://a.example/x"}}"#.utf8))
        #expect(envelope.activity.to == ["https://a.example/x"])
        #expect(throws: ActivityError.missingType) {
            try JSONDecoder().decode(Envelope.self, from: Data(#"{"activity": {"to": "x"}}"#.utf8))
        }
    }
}

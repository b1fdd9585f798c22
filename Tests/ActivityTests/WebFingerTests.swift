import Foundation
import Testing
import Activity

@Suite("WebFinger")
struct WebFingerTests {
    @Test(arguments: [
        ("acct:alice@mastodon.example", "alice", "mastodon.example"),
        ("alice@mastodon.example", "alice", "mastodon.example"),
        ("@alice@mastodon.example", "alice", "mastodon.example"),
        ("ACCT:Alice@Mastodon.Example", "Alice", "mastodon.example"),
        ("acct:carol@127.0.0.1:8081", "carol", "127.0.0.1:8081"),
        ("acct:carol@localhost:3000", "carol", "localhost:3000"),
        ("acct:carol@[::1]:8081", "carol", "[::1]:8081"),
        ("acct:1happyturtle@gts.example", "1happyturtle", "gts.example"),
        ("acct:first.last-name_2@a.example", "first.last-name_2", "a.example"),
        ("acct:bob@xn--bcher-kva.example", "bob", "xn--bcher-kva.example"),
    ])
    func accountsParse(text: String, username: String, domain: String) throws {
        #expect(try WebFingerResource(parsing: text) == .account(username: username, domain: domain))
    }

    @Test(arguments: [
        "https://mastodon.example/users/alice",
        "http://127.0.0.1:8081/users/carol",
        "https://mastodon.example/@alice",
        "HTTPS://Mastodon.example/users/alice",
    ])
    func urlsParse(text: String) throws {
        #expect(try WebFingerResource(parsing: text) == .url(text))
    }

    @Test(arguments: [
        "", " ", "acct:", "acct:alice", "alice", "@alice", "acct:@mastodon.example", "acct:alice@",
        "alice@@mastodon.example", "acct:alice@bob@mastodon.example", "acct:al ice@mastodon.example",
        "acct:alice@mastodon.example ", " acct:alice@mastodon.example", "acct:alice@masto\ndon.example",
        "acct:alice@mastodon.example\u{0}", "mailto:alice@mastodon.example", "xmpp:alice@jabber.example",
        "ftp://mastodon.example/users/alice", "https://", "https:///users/alice", "https://user@evil.example/",
        "acct:alice@mastodon..example", "acct:alice@-mastodon.example", "acct:alice@mastodon.example:0",
        "acct:alice@mastodon.example:99999", "acct:alice@mastodon.example:http", "acct:ali<ce@mastodon.example",
        "acct:alice@mastodon_example.com/x", "acct:alice@\u{202E}elgoog.example",
    ])
    func malformedResourcesAreRejected(text: String) {
        #expect(throws: ActivityError.malformedResource(text)) { try WebFingerResource(parsing: text) }
    }

    /// Found by the `webfinger` fuzz target (Tests/Fuzz/Corpus/webfinger/combining-mark-name):
    /// a name starting with a combining mark was accepted, but its `acct:` URI was refused,
    /// because "acct:" and the mark made one Character.
    @Test(arguments: ["\u{AA2C}責@\u{285}", "acct:\u{AA2C}責@\u{285}", "@\u{AA2C}責@\u{285}"])
    func nameStartingWithACombiningMarkRoundTrips(text: String) throws {
        let resource = try WebFingerResource(parsing: text)
        #expect(resource == .account(username: "\u{AA2C}責", domain: "\u{285}"))
        #expect(try WebFingerResource(parsing: resource.uri) == resource)
    }

    /// Found by the `webfinger` fuzz target (Tests/Fuzz/Corpus/webfinger/dotted-capital-i):
    /// "İ" passed as a host letter, but the domain kept is its lowercase, "i" and a combining
    /// dot, whose `acct:` URI was then refused.
    @Test func domainIsCheckedLowercased() throws {
        #expect(throws: ActivityError.malformedResource("bob@İ.example")) { try WebFingerResource(parsing: "bob@İ.example") }
        #expect(try WebFingerResource(parsing: "bob@Ä.EXAMPLE") == .account(username: "bob", domain: "ä.example"))
    }

    @Test func resourceURIIsCanonical() throws {
        #expect(try WebFingerResource(parsing: "@Carol@FEDNODE.example").uri == "acct:Carol@fednode.example")
        #expect(try WebFingerResource(parsing: "https://a.example/u/x").uri == "https://a.example/u/x")
    }

    @Test(arguments: [
        "webfinger/rfc7033-3.1-openid-issuer.jrd.json",
        "webfinger/rfc7033-3.2-blog-article.jrd.json",
        "webfinger/rfc7033-4.3-rel-parameter.jrd.json",
    ])
    func rfcExamplesDecodeAndEncodeFaithfully(path: String) throws {
        let bytes = try TestFiles.vector(path)
        let document = try JSONDecoder().decode(WebFingerDocument.self, from: bytes)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let reencoded = try encoder.encode(document)
        #expect(try JSONValue.parse(reencoded) == (try JSONValue.parse(bytes)))
        #expect(try JSONDecoder().decode(WebFingerDocument.self, from: reencoded) == document)
    }

    @Test func blogArticleExampleKeepsNullPropertiesAndTitles() throws {
        let document = try JSONDecoder().decode(WebFingerDocument.self, from: TestFiles.vector("webfinger/rfc7033-3.2-blog-article.jrd.json"))
        #expect(document.subject == "http://blog.example.com/article/id/314")
        #expect(document.aliases == ["http://blog.example.com/cool_new_thing", "http://blog.example.com/steve/article/7"])
        let properties = try #require(document.properties)
        #expect(properties["http://blgx.example.net/ns/version"] == .some("1.3"))
        #expect(properties.keys.contains("http://blgx.example.net/ns/ext"))
        #expect(properties["http://blgx.example.net/ns/ext"] == .some(nil))
        let author = try #require(document.link(rel: "author"))
        #expect(author.titles?["fr"] == "Le Monde Magique de Steve")
        #expect(author.properties?["http://example.com/role"] == .some("editor"))
        #expect(document.link(rel: "copyright")?.href == "http://www.example.com/copyright")
    }

    @Test func rfcRequestsNameTheResourceTheBodyDescribes() throws {
        let examples = try JSONValue.parse(TestFiles.vector("webfinger/examples.json"))
        for example in try #require(examples["examples"]?.arrayValue) {
            let query = try #require(example["request"]?["path_and_query"]?.stringValue)
            let components = try #require(URLComponents(string: "https://host\(query)"))
            let resource = try #require(components.queryItems?.first { $0.name == "resource" }?.value)
            let body = try TestFiles.vector("webfinger/" + #require(example["response"]?["body_file"]?.stringValue))
            let document = try JSONDecoder().decode(WebFingerDocument.self, from: body)
            #expect(try WebFingerResource(parsing: resource).uri == document.subject)
        }
    }

    @Test func accountDocumentPointsAtTheActor() throws {
        let document = WebFingerDocument.account(
            username: "carol", domain: "127.0.0.1:8081", actorURL: "http://127.0.0.1:8081/users/carol",
            profileURL: "http://127.0.0.1:8081/@carol", subscribeTemplate: "http://127.0.0.1:8081/authorize_interaction?uri={uri}")
        #expect(document.subject == "acct:carol@127.0.0.1:8081")
        #expect(document.actorURL == "http://127.0.0.1:8081/users/carol")
        #expect(document.link(rel: "http://ostatus.org/schema/1.0/subscribe")?.template?.hasSuffix("{uri}") == true)
        let encoded = try JSONEncoder().encode(document)
        let json = try JSONValue.parse(encoded)
        // Absent optionals are left out rather than written as null.
        #expect(json["properties"] == nil)
        #expect(json["links"]?.arrayValue?.first?["template"] == nil)
        #expect(try JSONDecoder().decode(WebFingerDocument.self, from: encoded) == document)
    }

    @Test func mastodonStyleResponseFindsTheActivityPubLink() throws {
        let json = """
        {"subject":"acct:alice@mastodon.example","aliases":["https://mastodon.example/@alice","https://mastodon.example/users/alice"],
         "links":[{"rel":"http://webfinger.net/rel/profile-page","type":"text/html","href":"https://mastodon.example/@alice"},
                  {"rel":"self","type":"application/activity+json","href":"https://mastodon.example/users/alice"},
                  {"rel":"http://ostatus.org/schema/1.0/subscribe","template":"https://mastodon.example/authorize_interaction?uri={uri}"},
                  {"rel":"http://webfinger.net/rel/avatar","type":"image/jpeg","href":"https://files.mastodon.example/a.jpg"}]}
        """
        let document = try JSONDecoder().decode(WebFingerDocument.self, from: Data(json.utf8))
        #expect(document.actorURL == "https://mastodon.example/users/alice")
        let ldOnly = WebFingerDocument(subject: "acct:x@a.example", links: [
            WebFingerLink(rel: "self", type: "text/html", href: "https://a.example/x.html"),
            WebFingerLink(rel: "self", type: ActivityStreams.ldMediaType, href: "https://a.example/x"),
        ])
        #expect(ldOnly.actorURL == "https://a.example/x")
        let noLinks = try JSONDecoder().decode(WebFingerDocument.self, from: Data(#"{"subject": "acct:x@a.example"}"#.utf8))
        #expect(noLinks.links.isEmpty && noLinks.actorURL == nil)
    }
}

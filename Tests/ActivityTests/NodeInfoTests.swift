import Foundation
import Testing
import Activity

@Suite("NodeInfo")
struct NodeInfoTests {
    static func checker() throws -> JSONSchemaChecker {
        JSONSchemaChecker(schema: try JSONValue.parse(TestFiles.vector("nodeinfo/2.1/schema.json")))
    }

    static func sample(version: String = "2.1") -> NodeInfoDocument {
        NodeInfoDocument.make(version: version, softwareVersion: "0.1.0", users: 12, activeHalfyear: 9, activeMonth: 4,
                              localPosts: 0, openRegistrations: false, nodeName: "Lakeside Photos",
                              repository: "https://git.example/fednode", homepage: "https://fednode.example")
    }

    @Test func schemaExampleValidatesAndDecodes() throws {
        let example = try TestFiles.vector("nodeinfo/2.1/example.json")
        #expect(try Self.checker().violations(of: JSONValue.parse(example)) == [])
        let document = try JSONDecoder().decode(NodeInfoDocument.self, from: example)
        #expect(document.version == "2.1")
        #expect(document.software == .init(name: "diaspora", version: "0.5.0", repository: "https://github.com/diaspora/diaspora",
                                           homepage: "https://diasporafoundation.org/"))
        #expect(document.protocols == ["diaspora"])
        #expect(document.services == .init(inbound: ["gnusocial"], outbound: ["facebook", "twitter"]))
        #expect(document.openRegistrations)
        #expect(document.usage.users == .init(total: 123, activeHalfyear: 42, activeMonth: 23))
        #expect(document.usage.localPosts == 500)
        #expect(document.usage.localComments == 1000)
        #expect(document.metadata == ["chat_enabled": true])
        let reencoded = try JSONEncoder().encode(document)
        #expect(try JSONValue.parse(reencoded) == (try JSONValue.parse(example)))
    }

    @Test func madeDocumentValidatesAgainstTheSchema() throws {
        let json = try JSONValue.parse(JSONEncoder().encode(Self.sample()))
        #expect(try Self.checker().violations(of: json) == [])
        #expect(json["software"]?["name"] == "fednode")
        #expect(json["software"]?["repository"] == "https://git.example/fednode")
        #expect(json["protocols"] == ["activitypub"])
        #expect(json["services"] == ["inbound": [], "outbound": []])
        #expect(json["usage"]?["users"] == ["total": 12, "activeHalfyear": 9, "activeMonth": 4])
        #expect(json["usage"]?["localPosts"] == 0)
        #expect(json["usage"]?["localComments"] == nil)
        #expect(json["metadata"]?["nodeName"] == "Lakeside Photos")
        #expect(json["openRegistrations"] == false)
    }

    @Test func version20LeavesOutTheFieldsAdded21() throws {
        let json = try JSONValue.parse(JSONEncoder().encode(Self.sample(version: "2.0")))
        #expect(json["version"] == "2.0")
        #expect(json["software"] == ["name": "fednode", "version": "0.1.0"])
        // 2.0 is 2.1 minus repository/homepage, so the 2.1 schema checks everything but the version.
        let problems = try Self.checker().violations(of: json)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("$.version:") == true)
    }

    @Test func negativeCountsAreClampedToTheSchemaMinimum() throws {
        let document = NodeInfoDocument.make(version: "2.1", softwareVersion: "0.1.0", users: -1, activeHalfyear: -5,
                                             activeMonth: 0, localPosts: -2, openRegistrations: true, nodeName: "x")
        #expect(try Self.checker().violations(of: JSONValue.parse(JSONEncoder().encode(document))) == [])
        #expect(document.usage.users.total == 0)
    }

    @Test func checkerCatchesSchemaViolations() throws {
        var document = Self.sample()
        document.software.name = "FedNode"
        document.protocols = []
        var json = try #require(try JSONValue.parse(JSONEncoder().encode(document)).objectValue)
        json["extra"] = true
        json.removeValue(forKey: "metadata")
        let problems = try Self.checker().violations(of: .object(json))
        #expect(problems.contains("$.software.name: FedNode does not match ^[a-z0-9-]+$"))
        #expect(problems.contains("$.protocols: fewer than 1 items"))
        #expect(problems.contains("$: unexpected extra"))
        #expect(problems.contains("$: missing metadata"))
    }

    @Test func discoveryLinksNameBothVersions() throws {
        let links = NodeInfoLinks.make(baseURL: "http://127.0.0.1:8081")
        #expect(links.links.map(\.rel) == ["http://nodeinfo.diaspora.software/ns/schema/2.0",
                                           "http://nodeinfo.diaspora.software/ns/schema/2.1"])
        #expect(links.preferredHref == "http://127.0.0.1:8081/nodeinfo/2.1")
        let json = try JSONValue.parse(JSONEncoder().encode(links))
        #expect(json == ["links": [
            ["rel": "http://nodeinfo.diaspora.software/ns/schema/2.0", "href": "http://127.0.0.1:8081/nodeinfo/2.0"],
            ["rel": "http://nodeinfo.diaspora.software/ns/schema/2.1", "href": "http://127.0.0.1:8081/nodeinfo/2.1"],
        ]])
        let mastodonStyle = NodeInfoLinks(links: [WebFingerLink(rel: NodeInfoLinks.rel20, href: "https://m.example/nodeinfo/2.0")])
        #expect(mastodonStyle.preferredHref == "https://m.example/nodeinfo/2.0")
    }

    @Test func remoteDocumentsWithoutUserCountsStillDecode() throws {
        let json = #"{"version":"2.0","software":{"name":"misskey","version":"2024.11.0"},"protocols":["activitypub"],"services":{"inbound":[],"outbound":["atom1.0","rss2.0"]},"openRegistrations":false,"usage":{"users":{}},"metadata":{"nodeName":"Misskey Example"}}"#
        let document = try JSONDecoder().decode(NodeInfoDocument.self, from: Data(json.utf8))
        #expect(document.software.name == "misskey")
        #expect(document.usage.users.total == nil)
        #expect(document.metadata["nodeName"] == "Misskey Example")
    }
}

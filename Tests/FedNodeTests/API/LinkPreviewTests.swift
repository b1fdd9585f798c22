import Activity
@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Link preview cards: pages read through the node's HTTP client from a live loopback server
/// playing a friendly OpenGraph site and hostile ones; cards shown on statuses over HTTP.
@Suite("Client API: link preview cards")
struct LinkPreviewTests {
    static let page = """
        <!doctype html><html><head><title>Fallback title</title>
        <meta property="og:title" content="Harbour &amp; lights">
        <meta property="og:description" content="Night photos from the old harbour.">
        <meta property="og:site_name" content="Photo Weekly">
        <meta property="og:image" content="https://cdn.example/harbour.jpg">
        <meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">
        <meta name="author" content="Ada Lovelace">
        </head><body><meta property="og:title" content="ignored, in the body"></body></html>
        """

    @Test("a linked OpenGraph page becomes the status card, shared by posts linking the same URL, and trends")
    func cardFromOpenGraph() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await PageServer.run { base in
            try await buildApplication(node: t.node).test(.live) { client async throws in
                let first = try await StatusFixtures.post(client, token: token, "#photo by @bob see \(base)/og today")
                let card = try await Self.eventualCard(of: first, client: client)
                #expect(card?.title == "Harbour & lights")
                #expect(card?.description == "Night photos from the old harbour.")
                #expect(card?.providerName == "Photo Weekly" && card?.authorName == "Ada Lovelace")
                #expect(card?.image == "https://cdn.example/harbour.jpg" && card?.width == 1200 && card?.height == 630)
                #expect(card?.type == "link" && card?.url == "\(base)/og")
                let second = try await StatusFixtures.post(client, token: bobToken, "also \(base)/og")
                #expect(try await Self.eventualCard(of: second, client: client)?.title == "Harbour & lights")
                let plain = try await StatusFixtures.post(client, token: token, "no link, #tag only")
                #expect(try await client.api(.get, "/api/v1/statuses/\(plain)").json?["card"] is NSNull)
                let links = try await client.api(.get, "/api/v1/trends/links").entity([APIPreviewCard].self)
                #expect(links.map(\.url) == ["\(base)/og"])
                #expect(links.first?.history?.first?.accounts == "2")
            }
        }
        let cards = try await t.node.database.readSQL { try PreviewCard.fetchCount($0) }
        #expect(cards == 1)
    }

    @Test("huge, non-HTML, failing and title-less pages give no card and no error")
    func hostilePages() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await PageServer.run { base in
            try await buildApplication(node: t.node).test(.live) { client async throws in
                for path in ["huge", "image", "missing", "bare", "redirect-loop"] {
                    let id = try await StatusFixtures.post(client, token: token, "see \(base)/\(path)")
                    #expect(await LinkPreviews.attach("\(base)/\(path)", to: Int64(id)!, node: t.node) == false)
                    let status = try await client.api(.get, "/api/v1/statuses/\(id)")
                    #expect(status.status == .ok && status.json?["card"] is NSNull, "\(path)")
                }
            }
        }
    }

    @Test("a node outside test mode refuses to read a page on a loopback address")
    func privateAddressRefused() async throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("fednode-test-\(UUID().uuidString)")
        var configuration = NodeConfiguration(domain: "social.test", testMode: false)
        configuration.dataDirectory = directory
        configuration.passwordCost = 10
        let t = TestNode(node: try Node(configuration: configuration, logger: TestNode.logger), dataDirectory: directory)
        defer { t.remove() }
        try await PageServer.run { base in
            #expect(await LinkPreviews.fetch("\(base)/og", node: t.node) == nil)
            #expect(await LinkPreviews.fetch("\(base)/og".replacingOccurrences(of: "localhost", with: "127.0.0.1"), node: t.node) == nil)
        }
    }

    @Test("the first link that is not a mention or hashtag is the one previewed")
    func firstLink() {
        let html = """
            <p><a href="https://social.test/tags/x" class="mention hashtag" rel="tag">#<span>x</span></a> \
            <span class="h-card"><a href="https://social.test/@bob" class="u-url mention">@<span>bob</span></a></span> \
            <a href="javascript:alert(1)">bad</a> <a href="https://example.com/a?b=1&amp;c=2">example.com/a</a> \
            <a href="https://example.com/second">second</a></p>
            """
        #expect(LinkPreviewPage.firstLink(inPostHTML: html) == "https://example.com/a?b=1&c=2")
        #expect(LinkPreviewPage.firstLink(inPostHTML: "<p>no links</p>") == nil)
        #expect(LinkPreviewPage.parse("<title>Only &lt;title&gt;</title>").title == "Only <title>")
        #expect(LinkPreviewPage.parse(#"<meta property="og:type" content="video.other"><meta property="og:title" content="v">"#).type == "video")
    }

    /// The card of status `id` once the background job stored it (polled, at most ten seconds).
    static func eventualCard(of id: String, client: any TestClientProtocol) async throws -> APIPreviewCard? {
        for _ in 0..<200 {
            if let card = try await client.api(.get, "/api/v1/statuses/\(id)").entity(APIStatus.self).card { return card }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }
}

/// A live loopback web server: an OpenGraph page and hostile ones.
enum PageServer {
    /// Runs `body` with the server's base URL.
    static func run(_ body: @Sendable (String) async throws -> Void) async throws {
        let app = Application(router: router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in try await body("http://localhost:\(client.port ?? 0)") }
    }

    private static func router() -> Router<BasicRequestContext> {
        let router = Router()
        let html: HTTPFields = [.contentType: "text/html; charset=utf-8"]
        router.get("og") { _, _ in Response(status: .ok, headers: html, body: .init(byteBuffer: ByteBuffer(string: LinkPreviewTests.page))) }
        router.get("huge") { _, _ in
            let filler = String(repeating: "<p>filler</p>", count: 200_000)
            return Response(status: .ok, headers: html, body: .init(byteBuffer: ByteBuffer(string: LinkPreviewTests.page + filler)))
        }
        router.get("image") { _, _ in
            Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: ByteBuffer(string: LinkPreviewTests.page)))
        }
        router.get("missing") { _, _ in Response(status: .notFound, headers: html, body: .init(byteBuffer: ByteBuffer(string: LinkPreviewTests.page))) }
        router.get("bare") { _, _ in Response(status: .ok, headers: html, body: .init(byteBuffer: ByteBuffer(string: "<p>no head</p>"))) }
        router.get("redirect-loop") { _, _ in Response(status: .found, headers: [.location: "/redirect-loop"]) }
        return router
    }
}

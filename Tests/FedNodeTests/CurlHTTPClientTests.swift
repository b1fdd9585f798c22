@testable import Core
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import FedNode

/// `CurlHTTPClient` against a real Hummingbird server on loopback.
@Suite struct CurlHTTPClientTests {
    @Test func getSendsHeadersAndUserAgent() async throws {
        try await EchoServer.run { base, served in
            let client = Self.client()
            let response = try await client.execute(
                HTTPClientRequest(url: base + "/echo", headers: [("X-Custom", "hello there")]))
            #expect(response.status == 200)
            #expect(response.header("x-echo-method") == "GET")
            #expect(response.header("X-ECHO-CUSTOM") == "hello there")
            #expect(response.header("X-Echo-User-Agent") == "fednode/0.1.0 (+https://social.example/)")
            #expect(response.url == base + "/echo")
            #expect(response.body.isEmpty)
            #expect(served.total == 1)
        }
    }

    @Test func postSendsBody() async throws {
        try await EchoServer.run { base, _ in
            let body: [UInt8] = Array(#"{"type":"Follow","x":"\#u{00}é"}"#.utf8) + [0, 255, 10]
            let response = try await Self.client().execute(
                HTTPClientRequest(
                    method: "POST", url: base + "/echo",
                    headers: [("Content-Type", "application/activity+json")], body: body))
            #expect(response.status == 200)
            #expect(response.header("X-Echo-Method") == "POST")
            #expect(response.header("X-Echo-Content-Type") == "application/activity+json")
            #expect(response.body == body)
        }
    }

    @Test(arguments: [("PUT", [UInt8]("photo".utf8)), ("DELETE", nil), ("POST", nil), ("POST", [])])
    func otherMethodsAndEmptyBodies(method: String, body: [UInt8]?) async throws {
        try await EchoServer.run { base, _ in
            let response = try await Self.client().execute(
                HTTPClientRequest(method: method, url: base + "/echo", body: body))
            #expect(response.header("X-Echo-Method") == method)
            #expect(response.body == (body ?? []))
        }
    }

    @Test func fiftyConcurrentRequestsAllSucceed() async throws {
        try await EchoServer.run { base, served in
            let client = Self.client()
            let echoed = try await withThrowingTaskGroup(of: (Int, HTTPClientResponse).self) { group in
                for index in 0..<50 {
                    group.addTask {
                        let request = HTTPClientRequest(
                            method: "POST", url: base + "/echo", headers: [("X-Custom", "\(index)")],
                            body: Array("body \(index)".utf8))
                        return (index, try await client.execute(request))
                    }
                }
                return try await group.reduce(into: [Int: HTTPClientResponse]()) { $0[$1.0] = $1.1 }
            }
            #expect(echoed.count == 50)
            for (index, response) in echoed {
                #expect(response.status == 200)
                #expect(response.header("X-Echo-Custom") == "\(index)")
                #expect(response.body == Array("body \(index)".utf8))
            }
            #expect(served.total == 50)
        }
    }

    @Test func followsThreeRedirects() async throws {
        try await EchoServer.run { base, _ in
            let response = try await Self.client().execute(HTTPClientRequest(url: base + "/redirect/3"))
            #expect(response.status == 200)
            #expect(response.body == Array("arrived".utf8))
            #expect(response.url == base + "/redirect/0")
            #expect(response.header("X-Hops-Left") == "0")
        }
    }

    @Test func refusesFourthRedirect() async throws {
        try await EchoServer.run { base, served in
            await #expect(throws: HTTPClientError.tooManyRedirects) {
                try await Self.client().execute(HTTPClientRequest(url: base + "/redirect/4"))
            }
            #expect(served.total == 4)
        }
    }

    @Test func redirectsAreNotFollowedWhenDisabled() async throws {
        try await EchoServer.run { base, _ in
            let response = try await Self.client(maxRedirects: 0).execute(HTTPClientRequest(url: base + "/redirect/1"))
            #expect(response.status == 302)
            #expect(response.header("Location") == "/redirect/0")
        }
    }

    @Test(arguments: ["/large/4096", "/stream/65536"])
    func refusesResponseOverCap(path: String) async throws {
        try await EchoServer.run { base, _ in
            await #expect(throws: HTTPClientError.responseTooLarge) {
                try await Self.client(maxResponseBytes: 1024).execute(HTTPClientRequest(url: base + path))
            }
        }
    }

    @Test func acceptsResponseAtCap() async throws {
        try await EchoServer.run { base, _ in
            let response = try await Self.client(maxResponseBytes: 1024).execute(
                HTTPClientRequest(url: base + "/large/1024"))
            #expect(response.body == [UInt8](repeating: UInt8(ascii: "a"), count: 1024))
        }
    }

    @Test func decodesGzip() async throws {
        try await EchoServer.run { base, _ in
            let response = try await Self.client().execute(HTTPClientRequest(url: base + "/gzip"))
            #expect(response.header("X-Echo-Accept-Encoding")?.contains("gzip") == true)
            #expect(response.body == [UInt8](repeating: 0, count: 100_000))
        }
    }

    @Test func capCountsDecodedBytes() async throws {
        try await EchoServer.run { base, _ in
            // 132 bytes on the wire, 100,000 once decoded.
            await #expect(throws: HTTPClientError.responseTooLarge) {
                try await Self.client(maxResponseBytes: 16_384).execute(HTTPClientRequest(url: base + "/gzip"))
            }
        }
    }

    @Test func slowResponseTimesOut() async throws {
        try await EchoServer.run { base, _ in
            await #expect(throws: HTTPClientError.timedOut) {
                try await Self.client(totalTimeout: .milliseconds(300)).execute(HTTPClientRequest(url: base + "/slow"))
            }
        }
    }

    @Test func requestOwnSizeCapAndTimeoutReplaceTheClients() async throws {
        try await EchoServer.run { base, _ in
            let client = Self.client()  // 4 MiB, 10 s
            await #expect(throws: HTTPClientError.responseTooLarge) {
                try await client.execute(HTTPClientRequest(url: base + "/large/4096", maxResponseBytes: 1024))
            }
            let small = try await client.execute(HTTPClientRequest(url: base + "/large/1024", maxResponseBytes: 1024))
            #expect(small.body.count == 1024)
            await #expect(throws: HTTPClientError.timedOut) {
                try await client.execute(HTTPClientRequest(url: base + "/slow", timeout: .milliseconds(300)))
            }
        }
    }

    @Test func cancellingTheTaskAbortsTheTransfer() async throws {
        try await EchoServer.run { base, served in
            let client = Self.client()
            let task = Task { try await client.execute(HTTPClientRequest(url: base + "/slow")) }
            try await served.waitForFirst()
            task.cancel()
            await #expect(throws: HTTPClientError.cancelled) { try await task.value }
        }
    }

    @Test func shutdownFailsRequestsInFlightAndAfter() async throws {
        try await EchoServer.run { base, served in
            let client = Self.client()
            let task = Task { try await client.execute(HTTPClientRequest(url: base + "/slow")) }
            try await served.waitForFirst()
            client.shutdown()
            client.shutdown()
            await #expect(throws: HTTPClientError.cancelled) { try await task.value }
            await #expect(throws: HTTPClientError.cancelled) {
                try await client.execute(HTTPClientRequest(url: base + "/echo"))
            }
            #expect(served.total == 1)
        }
    }

    @Test func refusesLoopbackUnlessAllowed() async throws {
        try await EchoServer.run { base, served in
            let port = base.split(separator: ":").last.map(String.init) ?? ""
            let client = Self.client(allowPrivateAddresses: false)
            await #expect(throws: HTTPClientError.blockedAddress("127.0.0.1")) {
                try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/echo"))
            }
            await #expect(throws: HTTPClientError.blockedAddress("::1")) {
                try await client.execute(HTTPClientRequest(url: "http://[::1]:\(port)/echo"))
            }
            // A name is checked by the address it resolves to.
            do throws(HTTPClientError) {
                _ = try await client.execute(HTTPClientRequest(url: "http://localhost:\(port)/echo"))
                Issue.record("localhost was not refused")
            } catch {
                #expect(error == .blockedAddress("127.0.0.1") || error == .blockedAddress("::1"))
            }
            #expect(served.total == 0)
            let allowed = try await Self.client(allowPrivateAddresses: true).execute(
                HTTPClientRequest(url: "http://localhost:\(port)/echo"))
            #expect(allowed.status == 200)
            #expect(served.total == 1)
        }
    }

    @Test func connectionRefusedIsConnectFailed() async throws {
        do throws(HTTPClientError) {
            _ = try await Self.client().execute(HTTPClientRequest(url: "http://127.0.0.1:1/"))
            Issue.record("a connection to a closed port succeeded")
        } catch {
            guard case .connectFailed = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }

    @Test(arguments: [
        "not a url", "ftp://example.com/file", "file:///etc/passwd", "http://", "http://exa mple.com/", "",
    ])
    func refusesInvalidURL(url: String) async throws {
        await #expect(throws: HTTPClientError.invalidURL(url)) {
            try await Self.client().execute(HTTPClientRequest(url: url))
        }
    }

    @Test func refusesHeaderInjection() async throws {
        let request = HTTPClientRequest(url: "http://127.0.0.1:1/", headers: [("X-A", "1\r\nX-Injected: 2")])
        do throws(HTTPClientError) {
            _ = try await Self.client().execute(request)
            Issue.record("a header with CRLF was sent")
        } catch {
            guard case .transport = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }

    @Test func userAgentNamesTheNode() {
        #expect(
            CurlHTTPClient.Configuration.userAgent(publicURL: "https://social.example/")
                == "fednode/0.1.0 (+https://social.example/)")
    }

    @Test("a connection to each of 80 hosts taken in turn is kept and reused, as deliveries to many inboxes need")
    func connectionsToManyHostsAreReused() async throws {
        let servers = try (0..<80).map { _ in try RawHTTPServer(answer: "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n") }
        defer { for server in servers { server.stop() } }
        let client = Self.client()
        for round in 0..<2 {
            for server in servers {
                let response = try await client.execute(
                    HTTPClientRequest(method: "POST", url: "http://127.0.0.1:\(server.port)/inbox", body: Array("{}".utf8)))
                #expect(response.status == 202, "round \(round)")
            }
        }
        #expect(servers.map(\.answered).reduce(0, +) == 160)
        #expect(servers.map(\.connectionsAccepted).reduce(0, +) == 80)
    }

    private static func client(
        allowPrivateAddresses: Bool = true, maxResponseBytes: Int = 4 * 1024 * 1024,
        maxRedirects: Int = 3, totalTimeout: Duration = .seconds(10)
    ) -> CurlHTTPClient {
        CurlHTTPClient(
            configuration: .init(
                userAgent: CurlHTTPClient.Configuration.userAgent(publicURL: "https://social.example/"),
                connectTimeout: .seconds(5), totalTimeout: totalTimeout, maxResponseBytes: maxResponseBytes,
                maxRedirects: maxRedirects, allowPrivateAddresses: allowPrivateAddresses))
    }
}

/// Counts the requests the test server handled, to check what reached it.
private final class ServedRequests: Sendable {
    private let count = Atomic<Int>(0)

    /// Records one handled request.
    func record() { count.add(1, ordering: .relaxed) }

    /// How many requests were handled.
    var total: Int { count.load(ordering: .relaxed) }

    /// Waits (at most five seconds) until the server has started handling a request.
    func waitForFirst() async throws {
        for _ in 0..<500 where total == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(total > 0)
    }
}

/// A live Hummingbird server that echoes requests and plays slow, large, redirecting and
/// gzip-encoding peers.
private enum EchoServer {
    /// Starts the server on a free loopback port and runs `body` with its base URL. (The live test
    /// framework binds "localhost"; libcurl tries every address the name resolves to.)
    static func run(_ body: @Sendable (String, ServedRequests) async throws -> Void) async throws {
        let served = ServedRequests()
        let app = Application(
            router: router(served), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await body("http://localhost:\(client.port ?? 0)", served)
        }
    }

    private static func router(_ served: ServedRequests) -> Router<BasicRequestContext> {
        let router = Router()
        let echo: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            served.record()
            let body = try await request.body.collect(upTo: 1 << 20)
            var headers = HTTPFields()
            headers[.init("X-Echo-Method")!] = request.method.rawValue
            headers[.init("X-Echo-User-Agent")!] = request.headers[.userAgent] ?? ""
            headers[.init("X-Echo-Custom")!] = request.headers[.init("X-Custom")!] ?? ""
            headers[.init("X-Echo-Content-Type")!] = request.headers[.contentType] ?? ""
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
        }
        router.get("echo", use: echo)
        router.post("echo", use: echo)
        router.put("echo", use: echo)
        router.delete("echo", use: echo)
        router.get("redirect/:hops") { _, context -> Response in
            served.record()
            let hops = try context.parameters.require("hops", as: Int.self)
            guard hops > 0 else {
                return Response(
                    status: .ok, headers: [.init("X-Hops-Left")!: "0"],
                    body: .init(byteBuffer: ByteBuffer(string: "arrived")))
            }
            return Response(status: .found, headers: [.location: "/redirect/\(hops - 1)"])
        }
        router.get("large/:bytes") { _, context -> Response in
            let count = try context.parameters.require("bytes", as: Int.self)
            let body = ByteBuffer(repeating: UInt8(ascii: "a"), count: count)
            return Response(status: .ok, body: .init(byteBuffer: body))
        }
        router.get("stream/:bytes") { _, context -> Response in
            // No Content-Length: only the client's running count can stop it.
            let count = try context.parameters.require("bytes", as: Int.self)
            return Response(status: .ok, body: ResponseBody { writer in
                for _ in 0..<(count / 4096) {
                    try await writer.write(ByteBuffer(repeating: UInt8(ascii: "b"), count: 4096))
                }
                try await writer.finish(nil)
            })
        }
        router.get("gzip") { request, _ -> Response in
            var headers: HTTPFields = [.contentEncoding: "gzip", .contentType: "application/octet-stream"]
            headers[.init("X-Echo-Accept-Encoding")!] = request.headers[.acceptEncoding] ?? ""
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: gzippedZeros)))
        }
        router.get("slow") { _, _ -> String in
            served.record()
            try await Task.sleep(for: .seconds(2))
            return "late"
        }
        return router
    }

    /// 100,000 zero bytes, gzip-compressed to 132 bytes.
    private static let gzippedZeros: [UInt8] =
        [
            0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xed, 0xc1, 0x31, 0x01, 0x00,
            0x00, 0x00, 0xc2, 0xa0, 0xf5, 0x4f, 0x6d, 0x0d, 0x0f, 0xa0,
        ] + [UInt8](repeating: 0, count: 96) + [0x80, 0x57, 0x03, 0x7d, 0x95, 0x11, 0xd4, 0xa0, 0x86, 0x01, 0x00]
}

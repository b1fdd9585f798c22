@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import ServiceLifecycle
import Signatures
import Storage
import Synchronization
import Testing

@testable import FedNode

/// `DeliveryWorker` sending real signed requests with libcurl to a live inbox on loopback.
@Suite struct DeliveryWorkerTests {
    static let follow = Data(#"{"@context":"https://www.w3.org/ns/activitystreams","id":"https://social.test/users/alice#follows/1","type":"Follow","actor":"https://social.test/users/alice","object":"https://remote.test/users/bob"}"#.utf8)

    @Test func deliversSignedActivity() async throws {
        try await InboxSink.run { base, sink in
            let (test, alice) = try await Self.nodeWithAlice()
            defer { test.remove() }
            try await enqueue(on: test.node, from: alice, to: ["\(base)/users/bob/inbox", "\(base)/inbox"])

            let summary = await DeliveryWorker(node: test.node, now: TestClock().now).deliverDue()

            #expect(summary.delivered == 2)
            #expect(try await pending(on: test.node).isEmpty)
            let received = sink.received
            #expect(Set(received.map(\.path)) == ["/users/bob/inbox", "/inbox"])
            let publicKey = try RSAPublicKey(pem: try #require(alice.publicKeyPem))
            for request in received {
                #expect(request.method == "POST")
                #expect(request.body == Array(Self.follow))
                #expect(request.header("content-type") == "application/activity+json")
                #expect(request.header("digest") == "SHA-256=" + Data(Digest.sha256(Array(Self.follow))).base64EncodedString())
                let verification = try SignatureVerifier().prepare(request.signable)
                #expect(verification.keyId == alice.publicKeyId)
                #expect(verification.coveredComponents.contains("digest"))
                #expect(verification.verify(with: publicKey))
            }
        }
    }

    @Test func fullBatchReportsMoreDue() async throws {
        try await InboxSink.run { base, sink in
            let (test, alice) = try await Self.nodeWithAlice()
            defer { test.remove() }
            try await enqueue(on: test.node, from: alice, to: (0..<70).map { "\(base)/users/u\($0)/inbox" })
            let worker = DeliveryWorker(node: test.node, now: TestClock().now)

            let first = await worker.deliverDue()
            #expect(first.delivered == 64 && first.moreDue)
            let second = await worker.deliverDue()
            #expect(second.delivered == 6 && !second.moreDue)
            #expect(Set(sink.received.map(\.path)).count == 70)
        }
    }

    @Test func serverErrorIsRetriedLater() async throws {
        try await InboxSink.run { base, sink in
            sink.answer(500)
            let (test, alice) = try await Self.nodeWithAlice()
            defer { test.remove() }
            try await enqueue(on: test.node, from: alice, to: ["\(base)/inbox"])
            let clock = TestClock()

            let summary = await DeliveryWorker(node: test.node, now: clock.now).deliverDue()

            #expect(summary.retried == 1)
            #expect(sink.received.count == 1)
            let row = try #require(try await pending(on: test.node).first)
            #expect(row.attempts == 1)
            #expect(row.lastStatus == 500)
            #expect(row.nextAttemptAt > clock.now())
            let health = try await domain(row.domain, on: test.node)
            #expect(health?.failingSince == clock.now())
            #expect(health?.unavailable == false)
            // Not due yet: a second pass at the same time sends nothing.
            #expect(await DeliveryWorker(node: test.node, now: clock.now).deliverDue().retried == 0)
            #expect(sink.received.count == 1)
        }
    }

    @Test func goneInboxIsDropped() async throws {
        try await InboxSink.run { base, sink in
            sink.answer(410)
            let (test, alice) = try await Self.nodeWithAlice()
            defer { test.remove() }
            try await enqueue(on: test.node, from: alice, to: ["\(base)/users/gone/inbox"])

            let summary = await DeliveryWorker(node: test.node, now: TestClock().now).deliverDue()

            #expect(summary.givenUp == 1)
            #expect(sink.received.count == 1)
            #expect(try await pending(on: test.node).isEmpty)
        }
    }

    @Test func retryAfterIsHonoured() async throws {
        try await InboxSink.run { base, sink in
            sink.answer(429, headers: ["Retry-After": "120"])
            let (test, alice) = try await Self.nodeWithAlice()
            defer { test.remove() }
            try await enqueue(on: test.node, from: alice, to: ["\(base)/inbox"])
            let clock = TestClock()

            #expect(await DeliveryWorker(node: test.node, now: clock.now).deliverDue().retried == 1)

            let row = try #require(try await pending(on: test.node).first)
            #expect(row.lastStatus == 429)
            #expect(row.nextAttemptAt >= clock.now().addingTimeInterval(120))
        }
    }

    @Test func domainFailingForDaysIsSkippedUntilAProbeSucceeds() async throws {
        try await InboxSink.run { base, sink in
            sink.answer(503)
            let (test, alice) = try await Self.nodeWithAlice()
            defer { test.remove() }
            try await enqueue(on: test.node, from: alice, to: ["\(base)/inbox"])
            let clock = TestClock()
            let worker = DeliveryWorker(node: test.node, now: clock.now)

            #expect(await worker.deliverDue().retried == 1)
            clock.advance(by: 4 * 86_400)
            #expect(await worker.deliverDue().retried == 1)
            let domainKey = try #require(DeliveryDomain.name(of: base))
            #expect(try await domain(domainKey, on: test.node)?.unavailable == true)

            // New work for the domain is kept but not sent while it is unavailable.
            try await enqueue(on: test.node, from: alice, to: ["\(base)/users/bob/inbox"], activity: "https://social.test/2")
            #expect(await worker.deliverDue() == DeliverySummary())
            #expect(sink.received.count == 2)
            #expect(try await pending(on: test.node).count == 2)

            // An hour later one delivery probes the domain; it answers, so the rest follows.
            sink.answer(202)
            clock.advance(by: 3601)
            #expect(await worker.deliverDue().delivered == 1)
            #expect(try await domain(domainKey, on: test.node)?.unavailable == false)
            #expect(await worker.deliverDue().delivered == 1)
            #expect(sink.received.count == 4)
            #expect(try await pending(on: test.node).isEmpty)
        }
    }

    @Test func inboundActivityRevivesDomain() async throws {
        try await InboxSink.run { base, sink in
            sink.answer(502)
            let (test, alice) = try await Self.nodeWithAlice()
            defer { test.remove() }
            try await enqueue(on: test.node, from: alice, to: ["\(base)/inbox"])
            let clock = TestClock()
            let worker = DeliveryWorker(node: test.node, now: clock.now)
            _ = await worker.deliverDue()
            clock.advance(by: 3 * 86_400)
            _ = await worker.deliverDue()
            clock.advance(by: 120)  // the row is due again, but its domain is skipped
            sink.answer(202)
            #expect(await worker.deliverDue() == DeliverySummary())

            try await worker.markAvailable(domain: try #require(DeliveryDomain.name(of: base)))

            #expect(await worker.deliverDue().delivered == 1)
            #expect(try await pending(on: test.node).isEmpty)
        }
    }

    @Test func restartedNodeResumesTheQueue() async throws {
        try await InboxSink.run { base, sink in
            sink.answer(500)
            let clock = TestClock()
            // The first node queues a delivery, fails to deliver it once, and is closed.
            let (configuration, alice) = try await { () async throws -> (NodeConfiguration, Account) in
                let (first, alice) = try await Self.nodeWithAlice()
                try await enqueue(on: first.node, from: alice, to: ["\(base)/inbox"])
                #expect(await DeliveryWorker(node: first.node, now: clock.now).deliverDue().retried == 1)
                // The same data directory and database (SQLite in it, or PostgreSQL).
                return (first.node.configuration, alice)
            }()
            defer { try? FileManager.default.removeItem(atPath: configuration.dataDirectory) }

            let restarted = try Node(configuration: configuration, logger: TestNode.logger)
            let row = try #require(try await pending(on: restarted).first)
            #expect(row.attempts == 1)
            sink.answer(202)
            clock.advance(by: 3600)

            #expect(await DeliveryWorker(node: restarted, now: clock.now).deliverDue().delivered == 1)
            let last = try #require(sink.received.last)
            let verification = try SignatureVerifier().prepare(last.signable, now: clock.now())
            #expect(verification.verify(with: try RSAPublicKey(pem: try #require(alice.publicKeyPem))))
            #expect(try await pending(on: restarted).isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(1))) func runningWorkerDeliversWhenSignalledAndStopsWhenCancelled() async throws {
        try await InboxSink.run { base, sink in
            let (test, alice) = try await Self.nodeWithAlice()
            defer { test.remove() }
            // Polling alone would take an hour: only the signal can wake the worker in time.
            let worker = DeliveryWorker(node: test.node, pollInterval: .seconds(3600))
            let running = Task { try await worker.run() }

            try await enqueue(on: test.node, from: alice, to: ["\(base)/inbox"])
            test.node.deliverySignal.notify()
            for _ in 0..<1000 {
                if !sink.received.isEmpty, try await pending(on: test.node).isEmpty { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(sink.received.count == 1)
            #expect(try await pending(on: test.node).isEmpty)

            running.cancel()
            try await running.value
        }
    }

    @Test(.timeLimit(.minutes(1))) func gracefulShutdownStopsTheWorker() async throws {
        try await InboxSink.run { base, sink in
            let (test, alice) = try await Self.nodeWithAlice()
            defer { test.remove() }
            let worker = DeliveryWorker(node: test.node, pollInterval: .seconds(3600))
            let group = ServiceGroup(configuration: .init(services: [worker], logger: TestNode.logger))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                try await enqueue(on: test.node, from: alice, to: ["\(base)/inbox"])
                test.node.deliverySignal.notify()
                for _ in 0..<1000 where sink.received.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
                #expect(sink.received.count == 1)

                // The worker sleeps for up to an hour; graceful shutdown (SIGTERM) must wake and end it.
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
    }

    // MARK: - Helpers

    /// A fresh test node with one local account, whose key signs the deliveries.
    private static func nodeWithAlice() async throws -> (TestNode, Account) {
        let test = try TestNode.make()
        return (test, try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse battery"))
    }

    private func enqueue(on node: Node, from account: Account, to inboxes: [String], activity: String = "https://social.test/1") async throws {
        try await node.database.writeSQL { db in
            _ = try Delivery.enqueue(activityUri: activity, payload: Self.follow, accountId: account.id, inboxes: inboxes, in: db)
        }
    }

    private func pending(on node: Node) async throws -> [Delivery] {
        try await node.database.readSQL { try Delivery.order(Column("id")).fetchAll($0) }
    }

    private func domain(_ name: String, on node: Node) async throws -> DeliveryDomain? {
        try await node.database.readSQL { try DeliveryDomain.fetchOne($0, key: name) }
    }
}

/// A clock that stands still unless moved. It starts on a whole second a minute ahead, so stored
/// times (millisecond precision) compare exactly and rows queued during the test are due.
private final class TestClock: Sendable {
    private let time = Mutex(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) + 60))

    /// The current test time.
    func now() -> Date { time.withLock { $0 } }

    /// Moves the clock forward.
    func advance(by seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// A remote inbox played by a live Hummingbird server: it records every request and answers
/// with the status set by the test (a real node cannot be told to answer 500, 410 or 429).
private final class InboxSink: Sendable {
    /// One request as the sink received it.
    struct Received: Sendable {
        var method: String
        var path: String
        var authority: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        /// The first header named `name` (lowercase).
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name }?.value
        }

        /// The request as the signature verifier reads it.
        var signable: SignableRequest {
            SignableRequest(method: method, path: path, authority: authority, scheme: "http", headers: headers, body: body)
        }
    }

    private let state = Mutex<(status: Int, headers: [String: String], received: [Received])>((202, [:], []))

    /// Every request so far, in arrival order.
    var received: [Received] { state.withLock { $0.received } }

    /// Sets the answer to the following requests.
    func answer(_ status: Int, headers: [String: String] = [:]) {
        state.withLock {
            $0.status = status
            $0.headers = headers
        }
    }

    /// Starts a sink on a free loopback port and runs `body` with its base URL (the live test
    /// framework binds "localhost"; libcurl tries every address the name resolves to).
    static func run(_ body: @Sendable (String, InboxSink) async throws -> Void) async throws {
        let sink = InboxSink()
        let router = Router()
        router.post("**") { request, _ -> Response in try await sink.handle(request) }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await body("http://localhost:\(client.port ?? 0)", sink)
        }
    }

    private func handle(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 1 << 20)
        let received = Received(
            method: request.method.rawValue, path: request.head.path ?? "/", authority: request.head.authority ?? "",
            headers: request.headers.map { (name: $0.name.rawName, value: $0.value) }, body: Array(buffer: body))
        let (status, headers) = state.withLock { state in
            state.received.append(received)
            return (state.status, state.headers)
        }
        var fields = HTTPFields()
        for (name, value) in headers { fields[.init(name)!] = value }
        return Response(status: .init(code: status), headers: fields)
    }
}

@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Synchronization
import Testing

@testable import FedNode

/// The running delivery worker shares its slots fairly: an inbox that is slow to answer holds
/// at most its domain's four slots, and another domain's delivery goes out meanwhile.
@Suite struct DeliveryFairnessTests {
    static let follow = Data(#"{"@context":"https://www.w3.org/ns/activitystreams","id":"https://social.test/users/alice#follows/1","type":"Follow","actor":"https://social.test/users/alice","object":"https://remote.test/users/bob"}"#.utf8)

    @Test(.timeLimit(.minutes(4))) func slowInboxDoesNotStarveAnotherDomain() async throws {
        try await HeldInbox.run { slowBase, slow in
            try await HeldInbox.run { fastBase, fast in
                fast.release()  // the fast inbox answers at once
                let test = try TestNode.make()
                defer { test.remove() }
                let alice = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse battery")
                // 64 Follows to the slow domain are queued first, then one Accept to the fast one.
                try await test.node.database.writeSQL { db in
                    for index in 0..<64 {
                        _ = try Delivery.enqueue(activityUri: "https://social.test/follows/\(index)", payload: Self.follow,
                                                 accountId: alice.id, inboxes: ["\(slowBase)/users/u\(index)/inbox"], in: db)
                    }
                    _ = try Delivery.enqueue(activityUri: "https://social.test/accepts/1", payload: Self.follow,
                                             accountId: alice.id, inboxes: ["\(fastBase)/inbox"], in: db)
                }
                let worker = DeliveryWorker(node: test.node, pollInterval: .seconds(3600))
                let running = Task { try await worker.run() }
                defer { running.cancel() }
                test.node.deliverySignal.notify()

                try await waitFor("the fast inbox received its delivery") { fast.received == 1 }
                #expect(slow.answered <= 1, "the fast delivery arrived while the slow ones (all but the first) were pending")
                try await waitFor("the slow inbox holds its four requests (held \(slow.held), received \(slow.received))") { slow.held == 4 }

                slow.release()
                try await waitFor("all 64 slow deliveries arrived") { slow.received == 64 }
                try await waitFor("the queue is empty") {
                    try await test.node.database.readSQL { try Delivery.fetchCount($0) } == 0
                }
                #expect(slow.maxHeld == 4, "one domain never had more than four requests in flight")
                running.cancel()
                try await running.value
            }
        }
    }

    /// Waits (bounded, 60 s: the full suite runs in parallel on two cores) for background work;
    /// asserts nothing about speed.
    private func waitFor(_ what: @autoclosure () -> String, _ condition: () async throws -> Bool) async throws {
        for _ in 0..<6000 {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("never happened: \(what())")
        throw CancellationError()
    }
}

/// A remote inbox on loopback that holds every POST until the test releases it, counting what
/// it holds, what it has received and what it has answered.
private final class HeldInbox: Sendable {
    private let state = Mutex<(held: Int, maxHeld: Int, received: Int, answered: Int, released: Bool,
                               waiters: [CheckedContinuation<Bool, Never>])>((0, 0, 0, 0, false, []))

    var held: Int { state.withLock { $0.held } }
    var maxHeld: Int { state.withLock { $0.maxHeld } }
    var received: Int { state.withLock { $0.received } }
    var answered: Int { state.withLock { $0.answered } }

    /// Answers what is held and everything after at once.
    func release() {
        let waiters = state.withLock { state in
            state.released = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume(returning: true) }
    }

    static func run(_ body: @Sendable (String, HeldInbox) async throws -> Void) async throws {
        let inbox = HeldInbox()
        let router = Router()
        router.post("**") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 1 << 20)
            await inbox.hold()
            return Response(status: .accepted)
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            defer { inbox.release() }
            try await body("http://localhost:\(client.port ?? 0)", inbox)
        }
    }

    private func hold() async {
        let counted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                state.received += 1
                // The first answer comes at once: over plain http, libcurl waits for a host's
                // first status line (to learn it is HTTP/1.1) before opening more connections.
                if state.released || state.received == 1 { return true }
                state.held += 1
                state.maxHeld = max(state.maxHeld, state.held)
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume(returning: false) }
        }
        state.withLock { state in
            state.answered += 1
            if counted { state.held -= 1 }
        }
    }
}

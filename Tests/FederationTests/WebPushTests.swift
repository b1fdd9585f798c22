@testable import Core
import Foundation
import Testing
@testable import FedNode

/// Web Push end to end: Mastodon.py subscribes on a running node, and a push service on loopback
/// (interop/python/push_service.py) verifies each push's VAPID JWT with the node's key and
/// decrypts it with the subscription's private key (interop/python/mastodon_push_test.py).
@Suite("Web Push to a real push service", .serialized, .enabled(if: PythonInterop.available))
struct WebPushTests {
    @Test("subscribe, favourite and follow pushed and decrypted, 410 removes the subscription, delete")
    func pushes() async throws {
        let node = try NetworkNode(name: "webpush")
        defer { node.remove() }
        try await node.start()
        // Bounded: a stuck step fails the test instead of hanging the suite.
        let (status, output) = try await PythonInterop.run("mastodon_push_test.py", ["--node", "http://\(node.domain)"], within: 180)
        #expect(status == 0, "push run failed:\n\(output)")
        #expect(output.contains("ALL OK"), "push run incomplete:\n\(output)")
        let queued = try await node.node.database.read { db in try db.pushSubscriptions.queuedCount() }
        #expect(queued == 0)
    }
}

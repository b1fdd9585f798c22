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
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("fednode-webpush-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let process = try PythonInterop.start("mastodon_push_test.py", ["--node", "http://\(node.domain)"], log: log)
        // Bounded: a stuck step fails the test instead of hanging the suite.
        let deadline = Date().addingTimeInterval(180)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "push run failed:\n\(output)")
        #expect(output.contains("ALL OK"), "push run incomplete:\n\(output)")
        let queued = try await node.node.database.read { db in try db.pushSubscriptions.queuedCount() }
        #expect(queued == 0)
    }
}

import Foundation
import Testing
@testable import FedNode

/// Acceptance through a real client library: Mastodon.py's own methods for bookmarks, mutes,
/// pinned posts, edit history and source, and markers, against a running node
/// (interop/python/mastodon_apps_a_test.py).
@Suite("Mastodon.py: bookmarks, mutes, pins, history, markers", .serialized, .enabled(if: PythonInterop.available))
struct MastodonAppsATests {
    @Test("status_bookmark, account_mute(duration=), status_pin, status_history, markers_set and the rest answer as Mastodon's")
    func mastodonPy() async throws {
        let node = try NetworkNode(name: "apps-a")
        defer { node.remove() }
        try await node.start()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("fednode-apps-a-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let process = try PythonInterop.start("mastodon_apps_a_test.py", ["--node", "http://\(node.domain)"], log: log)
        // Bounded: a stuck step fails the test instead of hanging the suite.
        let deadline = Date().addingTimeInterval(180)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "Mastodon.py run failed:\n\(output)")
        #expect(output.contains("ALL OK"), "Mastodon.py run incomplete:\n\(output)")
        await node.stop()
    }
}

@testable import Core
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
        // Bounded: a stuck step fails the test instead of hanging the suite.
        let (status, output) = try await PythonInterop.run("mastodon_apps_a_test.py", ["--node", "http://\(node.domain)"], within: 180)
        #expect(status == 0, "Mastodon.py run failed:\n\(output)")
        #expect(output.contains("ALL OK"), "Mastodon.py run incomplete:\n\(output)")
        await node.stop()
    }
}

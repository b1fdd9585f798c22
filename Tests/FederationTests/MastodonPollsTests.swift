@testable import Core
import Foundation
import Testing
@testable import FedNode

/// Acceptance through Mastodon.py's own methods across two nodes: a poll made on one, voted
/// on from the other, ended and read both ways; a muted conversation; posting defaults; and the
/// smaller calls apps make (interop/python/mastodon_polls_test.py).
@Suite("Mastodon.py: polls across nodes, conversation mute, posting defaults", .serialized, .enabled(if: PythonInterop.available))
struct MastodonPollsTests {
    @Test("make_poll, poll_vote, poll across two nodes; status_mute; default_privacy; media_delete, filters v1")
    func mastodonPy() async throws {
        // A short minimum lets the run watch a poll end.
        let a = try NetworkNode(name: "polls-a") { $0.minimumPollDuration = 5 }
        let b = try NetworkNode(name: "polls-b")
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        // Bounded: a stuck step fails the test instead of hanging the suite.
        let (status, output) = try await PythonInterop.run("mastodon_polls_test.py", ["--node-a", "http://\(a.domain)", "--node-b", "http://\(b.domain)"],
                                                           within: 240)
        #expect(status == 0, "Mastodon.py run failed:\n\(output)")
        #expect(output.contains("ALL OK"), "Mastodon.py run incomplete:\n\(output)")
        for node in [a, b] { await node.stop() }
    }
}

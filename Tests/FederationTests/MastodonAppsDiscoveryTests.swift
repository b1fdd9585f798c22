import Foundation
import Testing
@testable import FedNode

/// Acceptance through a real client library: Mastodon.py drives a running node over HTTP
/// (interop/python/mastodon_apps_c_test.py) through the directory, suggestions, trends and
/// link preview cards.
@Suite("Mastodon.py: directory, suggestions, trends, cards", .serialized, .enabled(if: PythonInterop.available))
struct MastodonAppsDiscoveryTests {
    @Test("directory, suggestions and dismissal, trending tags, statuses and links, a posted link's card")
    func discovery() async throws {
        let node = try NetworkNode(name: "mastodonpy-discovery")
        defer { node.remove() }
        try await node.start()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("fednode-discovery-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let process = try PythonInterop.start("mastodon_apps_c_test.py", ["--node", "http://\(node.domain)"], log: log)
        // Bounded: a stuck step fails the test instead of hanging the suite.
        let deadline = Date().addingTimeInterval(180)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "Mastodon.py run failed:\n\(output)")
        #expect(output.contains("ALL OK"), "Mastodon.py run incomplete:\n\(output)")
    }
}

import Foundation
import Testing

/// The web app in headless Chromium (Selenium), across two real nodes: the scenario of the web
/// app's issue, CSRF refusal, XSS in user-supplied fields and friendly error pages
/// (`interop/browser/web_browser_test.py`). Screenshots of every view land in
/// `.build/screenshots/`.
@Suite("Web app in a browser", .serialized)
struct WebBrowserTests {
    @Test("sign up, profile, three photos, follow across nodes, like, comment, live notification, search, edit, delete, block, log out",
          .enabled(if: PythonInterop.available))
    func browserScenario() async throws {
        let (a, b) = (try NetworkNode(name: "web-a"), try NetworkNode(name: "web-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let screenshots = PythonInterop.root.appendingPathComponent(".build/screenshots").path
        let (status, output) = try await PythonInterop.run("../browser/web_browser_test.py", [
            "--node-a", "http://\(a.domain)", "--node-b", "http://\(b.domain)", "--screenshots", screenshots,
        ], within: 420)
        #expect(status == 0 && output.contains("ALL OK"), "browser run failed:\n\(output)")
        for node in [a, b] { await node.stop() }
    }
}

@testable import Core
import Foundation
import Testing
@testable import FedNode

/// Mastodon.py against a node in approval mode: `create_account` with a reason, the pending
/// token refused, `admin_account_approve`/`admin_account_reject`, the instance fields, and the
/// domain allow calls (`registration_approval_test.py`).
@Suite("Mastodon.py: approval-mode registration and domain allows", .serialized)
struct RegistrationInteropTests {
    @Test("Mastodon.py signs up in approval mode; the admin approves and rejects", .enabled(if: PythonInterop.available))
    func approval() async throws {
        let node = try NetworkNode(name: "approval-py") { $0.registrations = .approval }
        defer { node.remove() }
        try await node.start()
        _ = try await node.node.accounts.create(username: "ada", email: "ada@approval.test", password: "ada secret password")
        try node.node.accounts.setRole("admin", of: "ada")
        let (status, output) = try await PythonInterop.run("registration_approval_test.py", [
            "--node", "http://\(node.domain)", "--admin-email", "ada@approval.test", "--admin-password", "ada secret password",
        ], within: 180)
        #expect(status == 0 && output.contains("ALL OK"), "Mastodon.py approval run failed:\n\(output)")
        await node.stop()
    }
}

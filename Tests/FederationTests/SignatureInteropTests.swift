@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// FedNode's HTTP Signatures checked against independent implementations from PyPI: `httpsig`
/// (draft-cavage-12) and `http-message-signatures` (RFC 9421). A Python process plays a remote
/// server: its actors sign Follows the node must accept (and tampered ones it must refuse), and
/// everything the node sends it (signed actor fetches, Accept and Create deliveries) must verify
/// with `httpsig`.
@Suite("Signature interop with Python libraries", .serialized, .enabled(if: PythonInterop.available))
struct SignatureInteropTests {
    @Test("Python-signed requests verify on the node; the node's signatures verify in Python")
    func crossCheck() async throws {
        let a = try NetworkNode(name: "interop")
        defer { a.remove() }
        try await a.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@interop.test", password: "alice password")
        let port = try FreePort.find()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("fednode-interop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let report = work.appendingPathComponent("report.jsonl")
        let python = try PythonInterop.start("signature_interop.py", [
            "--port", String(port), "--inbox", "http://\(a.domain)/users/alice/inbox",
            "--target", alice.uri, "--report", report.path, "--lifetime", "120",
        ], log: work.appendingPathComponent("python.log"))
        defer { python.terminate() }

        // The Python client's four requests: tampered ones refused, genuine ones accepted.
        try await eventually("the Python client sent its four follows", within: 60) {
            PythonInterop.lines(report).filter { $0["kind"] as? String == "client" }.count == 4
        }
        let statuses = Dictionary(uniqueKeysWithValues: PythonInterop.lines(report)
            .filter { $0["kind"] as? String == "client" }.map { ($0["name"] as! String, $0["status"] as! Int) })
        #expect(statuses["cavage"] == 202, "httpsig (draft-cavage) Follow: \(statuses)")
        #expect(statuses["rfc9421"] == 202, "http-message-signatures (RFC 9421) Follow: \(statuses)")
        #expect(statuses["cavage-tampered"] == 401, "tampered draft-cavage body: \(statuses)")
        #expect(statuses["rfc9421-tampered"] == 401, "tampered RFC 9421 body: \(statuses)")

        // Both Python actors now follow alice, and the node told them so with signed Accepts.
        try await eventually("alice has both Python followers") {
            try a.read { try Account.followersCount(of: alice.id, in: $0) } == 2
        }
        _ = try await a.node.posts.create(.init(text: "Hello, independent implementations"), by: alice)
        try await eventually("the Python server received the Accepts and the Create", within: 60) {
            let posts = PythonInterop.lines(report).filter { $0["kind"] as? String == "post" }
            return posts.filter { $0["type"] as? String == "Accept" }.count >= 2 && posts.contains { $0["type"] as? String == "Create" }
        }

        let lines = PythonInterop.lines(report)
        let gets = lines.filter { $0["kind"] as? String == "get" }
        #expect(!gets.isEmpty, "the node fetched the Python actors")
        for get in gets {
            #expect(get["signed"] as? Bool == true, "actor fetch unsigned: \(get)")
            #expect(get["verified"] as? Bool == true, "httpsig rejected the node's signed GET: \(get)")
        }
        for post in lines.filter({ $0["kind"] as? String == "post" }) {
            #expect(post["verified"] as? Bool == true, "httpsig rejected the node's \(post["type"] ?? "?") delivery: \(post)")
            #expect((post["key_id"] as? String)?.hasPrefix(alice.uri) == true, "signed by alice's key: \(post)")
        }
    }
}

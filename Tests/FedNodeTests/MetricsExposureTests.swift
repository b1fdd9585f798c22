@testable import Core
import Foundation
import Testing

@testable import FedNode

/// Who may read `/metrics` under each `--metrics` setting.
@Suite("metrics exposure")
struct MetricsExposureTests {
    @Test("private admits loopback and private networks only, forwarded chains included")
    func privateExposure() {
        let exposure = MetricsExposure.private
        #expect(exposure.permits(peer: "127.0.0.1", forwarded: []))
        #expect(exposure.permits(peer: "::1", forwarded: []))
        #expect(exposure.permits(peer: "::ffff:127.0.0.1", forwarded: []))
        #expect(exposure.permits(peer: "10.1.2.3", forwarded: []))
        #expect(exposure.permits(peer: "192.168.1.20", forwarded: ["172.16.0.9"]))
        #expect(exposure.permits(peer: "fd12:3456::1", forwarded: []))
        #expect(exposure.permits(peer: nil, forwarded: []))
        #expect(exposure.permits(peer: "127.0.0.1", forwarded: ["\"10.0.0.1:8080\"", "[::1]:4711"]))
        // A public client, straight or through the proxy on the same host, is refused.
        #expect(!exposure.permits(peer: "203.0.113.9", forwarded: []))
        #expect(!exposure.permits(peer: "127.0.0.1", forwarded: ["203.0.113.9"]))
        #expect(!exposure.permits(peer: "127.0.0.1", forwarded: ["10.0.0.1", "203.0.113.9"]))
        #expect(!exposure.permits(peer: "127.0.0.1", forwarded: ["[2001:db8::1]:4711"]))
        #expect(!exposure.permits(peer: "127.0.0.1", forwarded: ["unknown"]))
        #expect(!exposure.permits(peer: "169.254.169.254", forwarded: []))
    }

    @Test("off refuses everyone and public admits everyone")
    func offAndPublic() {
        #expect(!MetricsExposure.off.permits(peer: "127.0.0.1", forwarded: []))
        #expect(MetricsExposure.public.permits(peer: "203.0.113.9", forwarded: ["198.51.100.7"]))
    }

    @Test("over HTTP, a forwarded public client gets a 404 unless --metrics public; off has no route")
    func servedExposure() async throws {
        try await ServedNode.with { served async throws in
            #expect(try await served.scrapeResponse().status == 200)
            #expect(try await served.scrapeResponse(headers: [("X-Forwarded-For", "10.0.0.7")]).status == 200)
            #expect(try await served.scrapeResponse(headers: [("X-Forwarded-For", "203.0.113.9")]).status == 404)
            #expect(try await served.scrapeResponse(headers: [("X-Real-IP", "203.0.113.9")]).status == 404)
            #expect(try await served.scrapeResponse(headers: [("Forwarded", "for=198.51.100.17;proto=https")]).status == 404)
        }
        try await ServedNode.with(configure: { $0.metrics = .public }) { served async throws in
            #expect(try await served.scrapeResponse(headers: [("X-Forwarded-For", "203.0.113.9")]).status == 200)
        }
        try await ServedNode.with(configure: { $0.metrics = .off }) { served async throws in
            let response = try await served.scrapeResponse()
            #expect(response.status == 404)
            #expect(!String(decoding: response.body, as: UTF8.self).contains("fednode_"))
        }
    }

    @Test("fednode serve refuses an unknown --metrics value")
    func commandLine() async throws {
        let dataDir = (NSTemporaryDirectory() as NSString).appendingPathComponent("fednode-metrics-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let run = try await FedNodeProcess.run(["serve", "--metrics", "sometimes", "--data-dir", dataDir, "--port", "0"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--metrics must be off, private or public"))
    }
}

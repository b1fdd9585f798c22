@testable import Core
import Foundation
import Logging
@testable import FedNode

#if canImport(Glibc)
import Glibc
#endif

/// A test failure raised when a bounded wait runs out.
struct StreamingTestTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "never happened: \(what)" }
}

/// A node served by a real Hummingbird server on 127.0.0.1 (streaming needs real connections),
/// started through `buildApplication` like `fednode serve`.
final class ServedNode: Sendable {
    let test: TestNode
    let port: Int
    private let task: Task<Void, any Error>

    var node: Node { test.node }

    private init(test: TestNode, port: Int, task: Task<Void, any Error>) {
        self.test = test
        self.port = port
        self.task = task
    }

    /// Starts a node on a free port and waits until it answers.
    static func start(limits: ServerLimits = ServerLimits(), logger: Logger = TestNode.logger,
                      configure: (inout NodeConfiguration) -> Void = { _ in }) async throws -> ServedNode {
        let port = try LoopbackPort.free()
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("fednode-stream-\(UUID().uuidString)")
        var configuration = TestNode.configuration(domain: "127.0.0.1:\(port)", dataDirectory: directory)
        configuration.port = port
        configuration.serverLimits = limits
        configure(&configuration)
        let test = TestNode(node: try Node(configuration: configuration, logger: logger), dataDirectory: directory)
        let app = buildApplication(node: test.node)
        let served = ServedNode(test: test, port: port, task: Task { try await app.run() })
        for _ in 0..<200 {
            let health = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/v1/streaming/health")
            if let response = try? await test.node.httpClient.execute(health), response.status == 200 { return served }
            try await Task.sleep(for: .milliseconds(25))
        }
        await served.stop()
        throw StreamingTestTimeout(what: "node serving on port \(port)")
    }

    /// Runs `body` against a started node and stops it afterwards, also when `body` fails.
    static func with(limits: ServerLimits = ServerLimits(), logger: Logger = TestNode.logger,
                     configure: (inout NodeConfiguration) -> Void = { _ in },
                     _ body: (ServedNode) async throws -> Void) async throws {
        let served = try await start(limits: limits, logger: logger, configure: configure)
        do {
            try await body(served)
        } catch {
            await served.stop()
            throw error
        }
        await served.stop()
    }

    /// Stops the server and removes its data.
    func stop() async {
        task.cancel()
        _ = await task.result
        test.remove()
    }
}

/// Finds a free loopback port by binding port 0.
enum LoopbackPort {
    static func free() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw StreamingTestTimeout(what: "a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}

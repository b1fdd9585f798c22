@testable import Core
import Hummingbird
import HummingbirdTesting
@testable import FedNode

extension TestNode {
    /// Runs `body` against the node served over real HTTP on 127.0.0.1 (an ephemeral port),
    /// through the same `buildApplication` as `fednode serve`.
    func withLiveClient<T: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        try await buildApplication(node: node).test(.live, body)
    }
}

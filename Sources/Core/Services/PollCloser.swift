import Foundation
import ServiceLifecycle

/// Ends polls whose time is up (`PollService.endDue`): checks every `interval` seconds, in
/// one process of a node at a time.
public struct PollCloser: Service {
    /// Seconds between checks: a poll's end is noticed within this.
    public static let interval: TimeInterval = 15
    package let node: Node

    /// A closer for `node`.
    public init(node: Node) { self.node = node }

    /// Checks now and every `interval` until shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await node.runScheduled("poll-closer", every: Self.interval) {
                do { try await PollService(node: node).endDue() } catch {
                    node.logger.warning("ending polls failed: \(error)")
                }
            }
        }
    }
}

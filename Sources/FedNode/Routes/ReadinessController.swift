import Core
import Foundation
import Hummingbird
import Storage

/// `GET /readyz`: 200 when the node can do its work, 503 (with what is wrong) otherwise. Unlike
/// `/healthz` (alive: the database answers a read), ready means the database takes writes, the
/// inbox and delivery workers run (in a process whose role runs them), and neither queue is backed up past its limit, so a load
/// balancer or orchestrator sends traffic only to a node that keeps up.
struct ReadinessController {
    /// The inbox worker's name in `Node.workers`.
    static let inboxWorker = "inbox"
    /// The delivery worker's name in `Node.workers`.
    static let deliveryWorker = "delivery"
    /// Inbox activities waiting beyond which the node is not ready (it would only fall further behind).
    static let maxInboxWaiting = 50_000
    /// Deliveries queued beyond which the node is not ready.
    static let maxDeliveriesQueued = 500_000

    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("readyz", use: readiness)
    }

    /// The checks, each `ok` or what failed, and the queue depths.
    @Sendable func readiness(_ request: Request, context: NodeRequestContext) async throws -> Response {
        var problems: [String] = []
        do {
            try await node.database.writeBookkeeping { try $0.statistics.probeWrite(at: Date()) }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            context.logger.error("readiness: database write failed", metadata: ["error": "\(error)"])
            problems.append("database does not take writes")
        }
        // A process of role `web` leaves the work to the processes of role `worker`.
        for worker in [Self.inboxWorker, Self.deliveryWorker] where node.configuration.role.runsWorkers && !node.workers.isRunning(worker) {
            problems.append("\(worker) worker not running")
        }
        let depths = try? await node.database.read { try $0.statistics.queueDepths() }
        if let depths {
            if depths.inboxWaiting > Self.maxInboxWaiting { problems.append("inbox queue backed up (\(depths.inboxWaiting) waiting)") }
            if depths.deliveriesQueued > Self.maxDeliveriesQueued { problems.append("delivery queue backed up (\(depths.deliveriesQueued) queued)") }
        } else {
            problems.append("queue depths unreadable")
        }
        let body = Readiness(status: problems.isEmpty ? "ready" : "unavailable", problems: problems, queues: depths)
        return JSONResponse.encode(body, status: problems.isEmpty ? .ok : .serviceUnavailable)
    }
}

/// The `/readyz` body.
struct Readiness: Encodable {
    /// `ready` or `unavailable`.
    var status: String
    /// What keeps the node from being ready; empty when ready.
    var problems: [String]
    /// The queue depths, when they could be read.
    var queues: QueueDepths?
}

import Core
import Hummingbird
import Storage

/// `GET /healthz`: 200 when the node can read its database.
struct HealthController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("healthz", use: health)
    }

    /// Answers `{"status": "ok"}` after a trivial database read, 503 when that fails.
    @Sendable func health(_ request: Request, context: NodeRequestContext) async throws -> Response {
        do {
            try await node.database.read { try $0.statistics.ping() }
            return JSONResponse.encode(["status": "ok"])
        } catch is CancellationError {
            throw CancellationError()  // the client went away: nothing failed
        } catch {
            context.logger.error("health check failed", metadata: ["error": "\(error)"])
            return JSONResponse.encode(["status": "unavailable"], status: .serviceUnavailable)
        }
    }
}

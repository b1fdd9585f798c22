import Foundation
import ServiceLifecycle
import Storage

extension Node {
    /// Runs `job` every `interval` seconds until cancelled, once for the whole node however
    /// many processes serve it: on a shared database (PostgreSQL) each process asks for the
    /// job's turn (`Coordination.takeTurn`) every minute at most, and only the one that gets it
    /// runs the job; on SQLite the one process runs it every `interval`.
    package func runScheduled(_ name: String, every interval: TimeInterval, _ job: @Sendable () async -> Void) async {
        let database = self.database
        let check = database.isShared ? min(interval, 60) : interval
        while !Task.isCancelled {
            let now = Date()
            var turn = true
            if database.isShared {
                turn = (try? await database.writeBookkeeping { try $0.coordination.takeTurn(of: name, every: interval, at: now) }) == true
            }
            if turn { await job() }
            try? await Task.sleep(for: .seconds(check))
        }
    }
}

/// Renews the claims this process holds on the queued work it is doing (`Node.claimedWork`)
/// every `WorkLease.renewalInterval`, so other processes on the database leave that work alone
/// for as long as this one lives and works on it.
/// Runs only where work is claimed (a shared database) and workers run.
package struct ClaimRenewal: Service {
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    package func run() async throws {
        let (database, holder, claimed) = (node.database, node.processId, node.claimedWork)
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(WorkLease.renewalInterval))
                do {
                    let work = claimed.current
                    try await database.writeBookkeeping { try $0.coordination.renewClaims(of: holder, on: work, at: Date()) }
                } catch {
                    node.logger.warning("cannot renew claims on queued work", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}

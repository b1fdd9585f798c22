import Activity
import Foundation
import GRDB
import Logging
import ServiceLifecycle
import Storage

/// Processes the inbox queue in arrival order. What the inbox accepted stays in SQLite until
/// processed, so a crash after the 202 only delays it until the next start.
public struct InboxWorker: Service {
    /// Attempts before a failing activity is dropped.
    static let maxAttempts = 8
    private let node: Node

    /// Creates the worker for a node.
    public init(node: Node) {
        self.node = node
    }

    /// Runs until graceful shutdown: drain what is due, then wait for a signal or a poll.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let processed = await processDue()
                if processed == 0 { await node.inboxSignal.wait(timeout: .seconds(2)) }
            }
        }
    }

    /// Processes every due queue item once, oldest first.
    /// - Returns: How many items were handled (processed, ignored or given up).
    @discardableResult
    public func processDue(now: Date = Date()) async -> Int {
        let items = (try? await node.database.pool.read { db in
            try InboxItem.filter(Column("available_at") <= now).order(Column("id")).limit(64).fetchAll(db)
        }) ?? []
        for item in items where !Task.isCancelled {
            await process(item, now: now)
        }
        return items.count
    }

    private func process(_ item: InboxItem, now: Date) async {
        let logger = node.logger.with(["activity": "\(item.activityId ?? "-")", "actor": "\(item.actorUri)"])
        do {
            let outcome = try await handle(item)
            if case .ignored(let reason) = outcome { logger.debug("activity ignored", metadata: ["reason": "\(reason)"]) }
            try await finish(item, outcome: outcome == .processed ? "processed" : "ignored")
        } catch let error as NodeError where Self.isPermanent(error) {
            logger.notice("activity refused", metadata: ["error": "\(error)"])
            try? await finish(item, outcome: "refused")
        } catch {
            await retry(item, error: error, now: now, logger: logger)
        }
    }

    private func handle(_ item: InboxItem) async throws(NodeError) -> InboxOutcome {
        let activity: ASObject
        do { activity = try ASObject.decode(from: item.payload) } catch { throw .badRequest("undecodable payload") }
        let actor: Account
        do {
            guard let found = try await node.database.pool.read({ try Account.withURI(item.actorUri).fetchOne($0) }) else {
                return .ignored("sender no longer known")
            }
            actor = found
        } catch { throw .internal("reading sender: \(error)") }
        guard let handler = InboxDispatcher.handler(for: activity.type) else { return .ignored("unsupported type \(activity.type ?? "-")") }
        return try await handler.handle(InboxContext(node: node, activity: activity, actor: actor))
    }

    private func finish(_ item: InboxItem, outcome: String) async throws {
        try await node.database.pool.write { db in
            _ = try item.delete(db)
            if let id = item.activityId {
                try db.execute(sql: "UPDATE seen_activities SET outcome = ? WHERE uri = ?", arguments: [outcome, id])
            }
        }
    }

    private func retry(_ item: InboxItem, error: any Error, now: Date, logger: Logger) async {
        var next = item
        next.attempts += 1
        next.lastError = "\(error)"
        next.availableAt = now.addingTimeInterval(min(3600, 10 * pow(2, Double(next.attempts))))
        let giveUp = next.attempts >= Self.maxAttempts
        logger.warning(giveUp ? "activity dropped after retries" : "activity will be retried", metadata: ["error": "\(error)"])
        let row = next
        _ = try? await node.database.pool.write { db in
            if giveUp { _ = try row.delete(db) } else { try row.update(db) }
        }
    }

    /// Errors that retrying cannot fix: the activity itself is refused.
    private static func isPermanent(_ error: NodeError) -> Bool {
        switch error {
        case .badRequest, .forbidden, .notFound, .gone, .validation, .unauthorized: true
        default: false
        }
    }
}

extension Logger {
    /// A copy with extra metadata.
    func with(_ metadata: Logger.Metadata) -> Logger {
        var copy = self
        for (key, value) in metadata { copy[metadataKey: key] = value }
        return copy
    }
}

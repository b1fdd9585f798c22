import Activity
import Foundation
import Logging
import ServiceLifecycle
import Storage

/// Processes the inbox queue. What the inbox accepted stays in SQLite until processed, so a
/// crash after the 202 only delays it until the next start.
///
/// Up to `limits.maxInFlight` items run at once and the queue refills as each one ends (no
/// waves). Items of one actor run one at a time in arrival order, and one domain holds at most
/// `limits.maxInFlightPerDomain` slots, so a server whose objects take 30 s to fetch delays only
/// its own activities (see `InboxInFlight`). Every attempt is counted in the database before
/// its handler runs; an item whose attempts keep dying with the process is parked.
public struct InboxWorker: Service {
    /// Failed attempts before a failing activity is parked.
    package static let maxAttempts = 8
    /// Attempts started and never finished (the process died) before an item is parked.
    package static let maxUnfinishedAttempts = 3
    private let node: Node
    /// Concurrency limits.
    package let limits: QueueLimits
    /// 64 items at once, 4 per domain: an item mostly waits (on the database's group commit,
    /// on fetches), so throughput follows the number in flight; a slow domain still holds at
    /// most 4 slots.
    public static let defaultLimits = QueueLimits(maxInFlight: 64, maxInFlightPerDomain: 4)

    /// Creates the worker for a node.
    /// - Parameters:
    ///   - node: The node whose queue this worker drains.
    ///   - limits: Items in flight at once, overall and per sending domain.
    public init(node: Node, limits: QueueLimits = Self.defaultLimits) {
        self.node = node
        self.limits = limits
    }

    /// A claimed item about to start, with the candidate it was chosen as.
    private typealias Started = (candidate: InboxQueue.Candidate, item: InboxItem)

    /// Events of the scheduling loop.
    private enum Event: Sendable {
        /// An item's attempt ended, however it ended.
        case finished(InboxQueue.Candidate)
        /// New work was signalled, or the poll interval passed.
        case wake
        /// Time to give back the slots of items that have run for long (`InboxInFlight.holdAfter`).
        case tick
    }

    /// Runs until graceful shutdown, refilling as items finish and when new work is signalled.
    public func run() async throws {
        // Activities another process accepted (several processes on one database).
        let observation = Inbox.observeQueue(in: node.database) { [signal = node.inboxSignal] in signal.notify() }
        defer { observation?.cancel() }
        await cancelWhenGracefulShutdown {
            _ = await schedule(untilIdle: false, now: { Date() })
        }
    }

    /// Processes every due item (including those that become startable as others finish) and
    /// returns when nothing due is left or running.
    /// - Parameter now: The time items are due by and retries are scheduled from (tests move it).
    /// - Returns: How many attempts ended (processed, ignored, refused, retried or parked).
    @discardableResult
    public func processDue(now: Date = Date()) async -> Int {
        await schedule(untilIdle: true, now: { now })
    }

    private func schedule(untilIdle: Bool, now: @escaping @Sendable () -> Date) async -> Int {
        var inFlight = InboxInFlight(limits: limits, maxUnfinished: Self.maxUnfinishedAttempts)
        var ended = 0
        var refill = true
        var lastRefill = ContinuousClock.now
        var ticking = false
        let signal = node.inboxSignal
        await withTaskGroup(of: Event.self) { group in
            if !untilIdle { group.addTask { await signal.wait(timeout: .seconds(2)); return .wake } }
            while !Task.isCancelled {
                if refill {
                    lastRefill = .now
                    let started = await startable(&inFlight, now: now())
                    let senders = await senders(of: started.map(\.item))
                    for (candidate, item) in started {
                        let sender = senders.map { $0[item.actorUri] }
                        let wait = inFlight.remoteWait(of: candidate)
                        group.addTask {
                            await RemoteWait.$current.withValue(wait) { await process(item, sender: sender, now: now) }
                            return .finished(candidate)
                        }
                    }
                }
                if untilIdle, inFlight.total == 0 { break }
                if !ticking, inFlight.hasHeldItems {
                    ticking = true
                    group.addTask { try? await Task.sleep(for: InboxInFlight.holdAfter / 2); return .tick }
                }
                guard let event = await group.next() else { break }
                switch event {
                case .tick:
                    ticking = false
                    refill = inFlight.releaseSlow(now: .now) > 0 && inFlight.refillsAfterEnding
                case .finished(let candidate):
                    inFlight.remove(candidate)
                    ended += 1
                    refill = inFlight.refillsAfterEnding
                case .wake:
                    refill = inFlight.refillsOnWake(sinceLastRefill: lastRefill.duration(to: .now))
                    if !Task.isCancelled { group.addTask { await signal.wait(timeout: .seconds(2)); return .wake } }
                }
            }
            group.cancelAll()
        }
        return ended
    }

    /// Chooses what may start now, parks what kept dying, and claims the chosen items (their
    /// attempt is counted durably before any handler runs).
    private func startable(_ inFlight: inout InboxInFlight, now: Date) async -> [Started] {
        var started: [Started] = []
        // A window full of one busy actor's items says nothing of the items behind it: look
        // again with that actor excluded, a few times at most.
        for _ in 0..<4 where inFlight.hasRoom {
            let window = inFlight.candidateWindow
            let (actors, domains) = (inFlight.actors, inFlight.saturatedDomains)
            guard let candidates = try? await node.database.read({ db in
                try db.inbox.candidates(at: now, excludingActors: actors, excludingDomains: domains, limit: window)
            }) else { break }
            let choice = inFlight.choose(from: candidates)
            started += await claim(choice, inFlight: &inFlight, now: now)
            if candidates.count < window || choice.draining { break }
        }
        return started
    }

    /// The senders of the items about to start, read once for all of them.
    /// - Returns: The stored senders by actor id, or the read's error for every item.
    private func senders(of items: [InboxItem]) async -> Result<[String: InboxSender], NodeError> {
        guard !items.isEmpty else { return .success([:]) }
        let uris = Set(items.map(\.actorUri))
        do { return .success(try await node.database.read { try $0.inbox.senders(uris) }) } catch {
            return .failure(.internal("reading senders: \(error)"))
        }
    }

    /// Parks and claims in one transaction; whatever could not be claimed leaves `inFlight`.
    private func claim(_ choice: InboxInFlight.Choice, inFlight: inout InboxInFlight, now: Date) async -> [Started] {
        guard !choice.start.isEmpty || !choice.park.isEmpty else { return [] }
        let reason = "interrupted \(Self.maxUnfinishedAttempts) times: the process died during each attempt"
        let holder = node.processId
        let claimed = try? await node.database.writeBookkeeping { db -> [Int64: InboxItem] in
            // Claims first: they take the processes' turn before any row lock of this transaction.
            let items = try db.inbox.claim(choice.start.map(\.id), holder: holder, at: now)
            for candidate in choice.park { try db.inbox.park(candidate.id, reason: reason, at: Date()) }
            return items
        }
        if let claimed { node.claimedWork.add(claimed.keys, to: .inbox) }
        if claimed != nil { node.metrics.inbox.ended(.parked, count: choice.park.count) }
        for candidate in choice.park {
            node.logger.error("inbox item parked", metadata: ["item": "\(candidate.id)", "actor": "\(candidate.actorUri)", "reason": "\(reason)"])
        }
        var started: [Started] = []
        for candidate in choice.start {
            if let item = claimed?[candidate.id] { started.append((candidate, item)) } else { inFlight.remove(candidate) }
        }
        return started
    }

    /// Handles one claimed item and records how it ended.
    /// - Parameter sender: Its sender as read with the batch it started in (`nil`: no longer stored).
    private func process(_ item: InboxItem, sender: Result<InboxSender?, NodeError>, now: @Sendable () -> Date) async {
        defer { node.claimedWork.remove(item.id, from: .inbox) }
        let logger = node.logger.with(["activity": "\(item.activityId ?? "-")", "actor": "\(item.actorUri)"])
        do {
            let tally = StatementTally()
            var type: String?
            let outcome = try await StatementTally.$current.withValue(tally) {
                let outcome = try await handle(item, sender: sender.get(), type: &type)
                try await finish(item, outcome: outcome == .processed ? "processed" : "ignored")
                return outcome
            }
            if case .ignored(let reason) = outcome { logger.debug("activity ignored", metadata: ["reason": "\(reason)"]) }
            node.metrics.inbox.ended(outcome == .processed ? .processed : .ignored)
            if outcome == .processed { node.metrics.inbox.recordStatements(type: type, statements: tally.count) }
        } catch {
            if Task.isCancelled {
                // An orderly shutdown interrupted it: this attempt does not count against the item.
                // (From a task of its own: the database's async write refuses to start in a cancelled one.)
                let database = node.database
                await Task { _ = try? await database.writeBookkeeping { try $0.inbox.release(item.id) } }.value
            } else if let error = error as? NodeError, Self.isPermanent(error) {
                logger.notice("activity refused", metadata: ["error": "\(error)"])
                try? await finish(item, outcome: "refused")
                node.metrics.inbox.ended(.refused)
            } else {
                await retry(item, error: error, now: now(), logger: logger)
            }
        }
    }

    /// - Parameter type: Set to the activity's type once decoded (for the metrics).
    private func handle(_ item: InboxItem, sender: InboxSender?, type: inout String?) async throws(NodeError) -> InboxOutcome {
        let activity: ASObject
        do { activity = try ASObject.decode(from: item.payload) } catch { throw .badRequest("undecodable payload") }
        type = activity.type
        guard let sender else { return .ignored("sender no longer known") }
        guard !sender.suspended else { return .ignored("sender is suspended") }
        let actor = sender.account
        guard let handler = InboxDispatcher.handler(for: activity.type) else { return .ignored("unsupported type \(activity.type ?? "-")") }
        return try await handler.handle(InboxContext(node: node, activity: activity, actor: actor))
    }

    /// Removes the item as bookkeeping (grouped with other items' bookkeeping, no fsync of its
    /// own): it commits after the handler's effects did, and the WAL replays in order, so the
    /// removal is never kept without the effects it stands for.
    private func finish(_ item: InboxItem, outcome: String) async throws {
        try await node.database.writeBookkeeping { db in try db.inbox.finish(item, outcome: outcome) }
    }

    /// Reschedules with bounded exponential backoff (20 s doubling up to an hour); parks the
    /// item once it has failed `maxAttempts` times, keeping it for the admin. A fetch refused
    /// because the origin's machine was busy (`.unavailable`: nothing was sent) is no attempt:
    /// the item is tried again in about 30 s, for a day after it arrived.
    private func retry(_ item: InboxItem, error: any Error, now: Date, logger: Logger) async {
        let busy = if case .unavailable = error as? NodeError { now.timeIntervalSince(item.receivedAt) < 86_400 } else { false }
        let attempts = item.attempts + (busy ? 0 : 1)
        let availableAt = now.addingTimeInterval(busy ? Double.random(in: 20...40) : min(3600, 10 * pow(2, Double(attempts))))
        let giveUp = attempts >= Self.maxAttempts
        logger.warning(giveUp ? "activity parked after retries" : "activity will be retried", metadata: ["error": "\(error)"])
        _ = try? await node.database.writeBookkeeping { db in
            try db.inbox.reschedule(item.id, attempts: attempts, availableAt: availableAt, error: "\(error)")
            if giveUp { try db.inbox.park(item.id, reason: "failed \(attempts) times: \(error)", at: now) }
        }
        node.metrics.inbox.ended(giveUp ? .parked : .retry)
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
    package func with(_ metadata: Logger.Metadata) -> Logger {
        var copy = self
        for (key, value) in metadata { copy[metadataKey: key] = value }
        return copy
    }
}

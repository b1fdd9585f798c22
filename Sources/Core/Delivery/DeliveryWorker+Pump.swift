import Foundation
import Logging
import ServiceLifecycle
import Signatures
import Storage

extension DeliveryWorker {
    /// Events of the sending loop.
    private enum Event: Sendable {
        /// A delivery's attempt ended.
        case finished(Delivery, AttemptResult)
        /// New work was signalled, or the poll interval passed.
        case wake
        /// Time to give back the slots of requests that have waited long (`DeliveryInFlight.holdAfter`).
        case tick
    }

    /// The sending loop. `continuous` (the running service) reads the queue again whenever no
    /// waiting delivery can start and on every wake-up; otherwise (one pass) it reads one batch
    /// and returns when that batch is done.
    /// - Returns: What was done.
    package func pump(continuous: Bool) async -> DeliverySummary {
        var summary = DeliverySummary()
        var state = DeliveryInFlight(limits: limits)
        var senders: [Int64: RequestSigner] = [:]
        var lastDrop = Date.distantPast
        var reread = true
        var ticking = false
        let (signal, pollInterval) = (node.deliverySignal, self.pollInterval)
        await withTaskGroup(of: Event.self) { group in
            if continuous { group.addTask { await signal.wait(timeout: pollInterval); return .wake } }
            while !Task.isCancelled, !Task.isShuttingDownGracefully {
                if reread, state.hasRoom {
                    reread = false
                    let now = self.now()
                    let drop = !continuous || now.timeIntervalSince(lastDrop) >= 60
                    if drop { lastDrop = now }
                    let read = await read(into: &state, signers: &senders, dropping: drop, pass: !continuous, summary: &summary)
                    if !read, !continuous { break }
                    if !read { reread = true }
                }
                for delivery in await claimed(state.take(), state: &state) {
                    let (signer, wait) = (senders[delivery.accountId], state.remoteWait(of: delivery))
                    group.addTask {
                        defer { node.claimedWork.remove(delivery.id, from: .deliveries) }
                        return .finished(delivery, await RemoteWait.$current.withValue(wait) { await attempt(delivery, signer: signer) })
                    }
                }
                if !continuous, state.total == 0 { break }
                if !ticking, state.hasHeldRequests {
                    ticking = true
                    group.addTask { try? await Task.sleep(for: DeliveryInFlight.holdAfter / 2); return .tick }
                }
                guard let event = await group.next() else { break }
                switch event {
                case .tick:
                    ticking = false
                    if state.releaseSlow(now: .now) > 0, continuous, !state.canStartWaiting { reread = true }
                case .finished(let delivery, let result):
                    state.finish(delivery)
                    summary.add(result)
                    // A revived domain's skipped deliveries are due now.
                    if continuous, result.revivedDomain || !state.canStartWaiting { reread = true }
                    if !continuous, result.revivedDomain { node.deliverySignal.notify() }
                case .wake:
                    reread = true
                    group.addTask { await signal.wait(timeout: pollInterval); return .wake }
                }
            }
            // Nothing new starts; the requests in flight finish and are recorded. The waker
            // ends at once: the shutdown handler notified the signal, or the task was cancelled.
            if continuous { signal.notify() }
            for await event in group {
                if case .finished(let delivery, let result) = event {
                    state.finish(delivery)
                    summary.add(result)
                }
            }
        }
        summary.interrupted += state.waiting.count
        // Rows left due by a failed write would come straight back: wait for the next poll.
        summary.moreDue = summary.moreDue && summary.interrupted == 0
        return summary
    }

    /// The deliveries of `taken` this process may send: when other processes share the
    /// database, those it could claim (`Deliveries.claim`); the others leave `state`.
    private func claimed(_ taken: [Delivery], state: inout DeliveryInFlight) async -> [Delivery] {
        guard node.database.isShared, !taken.isEmpty else { return taken }
        let (holder, now) = (node.processId, self.now())
        let ids = (try? await node.database.writeBookkeeping { db in try db.deliveries.claim(taken.map(\.id), holder: holder, at: now) }) ?? []
        node.claimedWork.add(ids, to: .deliveries)
        for delivery in taken where !ids.contains(delivery.id) { state.finish(delivery) }
        return taken.filter { ids.contains($0.id) }
    }

    /// Reads the due deliveries (and probes) into `state`'s waiting list and loads their signers.
    /// - Returns: `false` when the queue could not be read.
    private func read(
        into state: inout DeliveryInFlight, signers senders: inout [Int64: RequestSigner], dropping: Bool, pass: Bool,
        summary: inout DeliverySummary
    ) async -> Bool {
        let now = self.now()
        let (perDomain, limit) = pass ? (batchSize, batchSize) : (readAheadPerDomain, readAhead)
        let (after, inFlight, maxProbes, probeBefore) = (state.lastDomain, state.ids, maxProbes, now.addingTimeInterval(-policy.probeInterval))
        do {
            if dropping { summary.givenUp += try await dropExpired(now: now) }
            let (due, probes) = try await node.database.read { db in
                let due = try db.deliveries.fairDue(
                    at: now, perDomain: perDomain, limit: limit, after: after, excludingIds: inFlight)
                let probes = try db.deliveries.probes(at: now, lastFailureBefore: probeBefore, limit: maxProbes)
                return (due, probes)
            }
            state.refill(due + probes)
            if pass { summary.moreDue = due.count == batchSize }
            let missing = Set(state.waiting.map(\.accountId)).subtracting(senders.keys)
            if !missing.isEmpty { senders.merge(try await signers.signers(for: missing)) { $1 } }
            return true
        } catch {
            node.logger.error("cannot read the delivery queue", metadata: ["error": "\(error)"])
            return false
        }
    }
}

import Storage

/// What the inbox worker has in flight, and the rule for what may start next:
/// - items of one actor run one at a time, in arrival order (a Follow before its Undo, a Create
///   before its Update);
/// - at most `maxInFlightPerDomain` items of one domain run at once, so a slow server holds only
///   its own slots;
/// - an item that was started before and never finished (the process died during it) runs
///   alone, so the next death is pinned on it; after `maxUnfinished` such starts it is parked;
/// - an item that has waited `holdAfter` on one request to a remote server (its `RemoteWait`)
///   gives its slot back and goes on in the background, up to `maxBackground` such items:
///   servers that hold fetches open cost their own items' time, never a slot an honest
///   sender's item needs. It keeps its actor's turn and its domain's share. Time spent on the
///   database or the CPU never frees a slot: that would only add work to a busy node.
package struct InboxInFlight: Sendable {
    /// Actors with an item in flight.
    private(set) var actors: Set<String> = []
    /// Items in flight per domain.
    private(set) var perDomain: [String: Int] = [:]
    /// Items holding a slot.
    private(set) var count = 0
    /// The items holding a slot, each with the marker of its requests to remote servers.
    private var holding: [Int64: RemoteWait] = [:]
    /// Items that gave their slot back after running `holdAfter` (see the type's comment).
    private(set) var background: Set<Int64> = []
    /// Items in flight, holding a slot or not.
    package var total: Int { count + background.count }
    /// A suspect item runs alone: nothing else starts until it ends.
    private(set) var isolating = false
    package let limits: QueueLimits
    package let maxUnfinished: Int

    /// Nothing in flight yet.
    /// - Parameters:
    ///   - limits: Items at once, overall and per domain.
    ///   - maxUnfinished: Starts that never finished before an item is parked.
    package init(limits: QueueLimits, maxUnfinished: Int) {
        self.limits = limits
        self.maxUnfinished = maxUnfinished
    }

    /// How long an item holds its slot before it goes on in the background.
    package static let holdAfter = Duration.seconds(1)
    /// Items running in the background at most, as a multiple of the slots: past that, a slow
    /// item keeps its slot.
    package static let backgroundPerSlot = 4
    package var maxBackground: Int { limits.maxInFlight * Self.backgroundPerSlot }

    /// Domains at their cap.
    package var saturatedDomains: Set<String> {
        Set(perDomain.filter { $0.value >= limits.maxInFlightPerDomain }.keys)
    }

    /// Whether another item may start at all.
    package var hasRoom: Bool { count < limits.maxInFlight && !isolating }

    /// With most slots busy, a wake still refills once this long passed since the last refill.
    package static let wakeRefillInterval = Duration.milliseconds(500)

    /// At or below this many in flight, a refill runs. Under a backlog the worker refills once a
    /// quarter of the slots are free rather than after every item: each refill is a query and a
    /// claiming transaction, shared by the items it starts.
    package var refillBelow: Int { limits.maxInFlight - max(1, limits.maxInFlight / 4) }

    /// Whether the ending of an item calls for a refill.
    package var refillsAfterEnding: Bool { count <= refillBelow }

    /// Whether a wake (new work arrived, or the periodic poll) calls for a refill. New work starts
    /// at once while slots are free. With most slots busy it waits for the refill that the next
    /// endings make: every accepted activity wakes the worker, and a refill per activity cost a
    /// query and a claim for one item. It waits at most `wakeRefillInterval` past the last
    /// refill, so items stuck on slow servers do not hold back what others sent.
    package func refillsOnWake(sinceLastRefill: Duration) -> Bool {
        refillsAfterEnding || (hasRoom && sinceLastRefill >= Self.wakeRefillInterval)
    }

    /// How many candidates one refill reads: four per free slot, enough to pass over items of
    /// actors and domains at their limits without reading the whole width at every refill.
    package var candidateWindow: Int { max(16, (limits.maxInFlight - count) * 4) }

    /// The choice of one scheduling round.
    package struct Choice: Sendable, Equatable {
        /// Items to claim and start, in arrival order.
        package var start: [InboxQueue.Candidate] = []
        /// Items that died with the process too often: park them.
        package var park: [InboxQueue.Candidate] = []
        /// A suspect item is waiting for the others to finish so it can run alone.
        package var draining = false
    }

    /// Picks from `candidates` (due items, oldest first) what may start now, and counts it as
    /// in flight.
    package mutating func choose(from candidates: [InboxQueue.Candidate]) -> Choice {
        var choice = Choice()
        for candidate in candidates where hasRoom {
            if candidate.unfinishedAttempts >= maxUnfinished {
                choice.park.append(candidate)
                continue
            }
            guard !actors.contains(candidate.actorUri),
                (perDomain[candidate.domain] ?? 0) < limits.maxInFlightPerDomain
            else { continue }
            if candidate.unfinishedAttempts > 0 {
                // Run it alone once the others are done; start nothing else meanwhile.
                guard total == 0 else { choice.draining = true; break }
                isolating = true
            }
            add(candidate)
            choice.start.append(candidate)
        }
        return choice
    }

    /// Counts `candidate` as in flight.
    private mutating func add(_ candidate: InboxQueue.Candidate) {
        actors.insert(candidate.actorUri)
        perDomain[candidate.domain, default: 0] += 1
        count += 1
        holding[candidate.id] = RemoteWait()
    }

    /// The marker the item's task runs with (`RemoteWait.current`).
    package func remoteWait(of candidate: InboxQueue.Candidate) -> RemoteWait? { holding[candidate.id] }

    /// Counts `candidate` as done (finished, failed, or never started after all).
    package mutating func remove(_ candidate: InboxQueue.Candidate) {
        actors.remove(candidate.actorUri)
        let left = (perDomain[candidate.domain] ?? 1) - 1
        perDomain[candidate.domain] = left > 0 ? left : nil
        if background.remove(candidate.id) == nil {
            count -= 1
            holding[candidate.id] = nil
        }
        if total == 0 { isolating = false }
    }

    /// Moves the items that have waited `holdAfter` on a remote server to the background, while
    /// there is room there. A suspect item running alone keeps its slot.
    /// - Returns: How many slots were given back.
    @discardableResult
    package mutating func releaseSlow(now: ContinuousClock.Instant) -> Int {
        guard !isolating else { return 0 }
        let due = holding.filter { $0.value.hasWaited(Self.holdAfter, at: now) }.map(\.key).sorted()
        let moving = due.prefix(max(0, maxBackground - background.count))
        for id in moving {
            holding[id] = nil
            background.insert(id)
            count -= 1
        }
        return moving.count
    }

    /// Whether an item holds a slot and may go to the background later (the worker then keeps a
    /// timer running).
    package var hasHeldItems: Bool { !holding.isEmpty && !isolating }
}

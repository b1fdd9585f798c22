import Storage

/// What the inbox worker has in flight, and the rule for what may start next:
/// - items of one actor run one at a time, in arrival order (a Follow before its Undo, a Create
///   before its Update);
/// - at most `maxInFlightPerDomain` items of one domain run at once, so a slow server holds only
///   its own slots;
/// - an item that was started before and never finished (the process died during it) runs
///   alone, so the next death is pinned on it; after `maxUnfinished` such starts it is parked.
struct InboxInFlight: Sendable {
    /// Actors with an item in flight.
    private(set) var actors: Set<String> = []
    /// Items in flight per domain.
    private(set) var perDomain: [String: Int] = [:]
    /// Items in flight.
    private(set) var count = 0
    /// A suspect item runs alone: nothing else starts until it ends.
    private(set) var isolating = false
    let limits: QueueLimits
    let maxUnfinished: Int

    /// Domains at their cap.
    var saturatedDomains: Set<String> {
        Set(perDomain.filter { $0.value >= limits.maxInFlightPerDomain }.keys)
    }

    /// Whether another item may start at all.
    var hasRoom: Bool { count < limits.maxInFlight && !isolating }

    /// The choice of one scheduling round.
    struct Choice: Sendable, Equatable {
        /// Items to claim and start, in arrival order.
        var start: [InboxQueue.Candidate] = []
        /// Items that died with the process too often: park them.
        var park: [InboxQueue.Candidate] = []
        /// A suspect item is waiting for the others to finish so it can run alone.
        var draining = false
    }

    /// Picks from `candidates` (due items, oldest first) what may start now, and counts it as
    /// in flight.
    mutating func choose(from candidates: [InboxQueue.Candidate]) -> Choice {
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
                guard count == 0 else { choice.draining = true; break }
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
    }

    /// Counts `candidate` as done (finished, failed, or never started after all).
    mutating func remove(_ candidate: InboxQueue.Candidate) {
        actors.remove(candidate.actorUri)
        let left = (perDomain[candidate.domain] ?? 1) - 1
        perDomain[candidate.domain] = left > 0 ? left : nil
        count -= 1
        if count == 0 { isolating = false }
    }
}

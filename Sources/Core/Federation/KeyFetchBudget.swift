/// Bounds the signing-key fetches made while a sender waits for its answer, so that one server
/// (or many) whose key documents never arrive costs its own requests' time, never another
/// sender's:
/// - one origin (the `keyId`'s authority) has at most `perOrigin` fetches in flight; further
///   ones wait their origin's turn, at most `queuedPerOrigin` of them and for at most `maxWait`,
///   and are refused past either (the sender is told to retry);
/// - node-wide at most `slots` fetches *start* within any `holdFor`: a fetch holds its slot
///   until it ends or `holdFor` passes, whichever is first, and then goes on without it. A
///   freed slot goes to the waiting fetch whose origin has the fewest fetches in flight, so a
///   sender new to the node goes before origins that already have theirs running (unless the
///   oldest waiter has waited twice `holdFor`: then it goes, so no origin starves). A hanging
///   fetch therefore delays another origin's fetch by about `holdFor` at most, while the number
///   of fetches starting at once stays bounded.
///
/// What a machine behind many origins may hold is bounded by the HTTP client's cap per peer
/// address (`CurlHTTPClient.Configuration.maxInFlightPerAddress`).
package actor KeyFetchBudget {
    /// Fetches in flight for one origin at most.
    package let perOrigin: Int
    /// Fetches of one origin waiting for its turn at most.
    package let queuedPerOrigin: Int
    /// How long a fetch waits for its origin's turn at most.
    package let maxWait: Duration
    /// Fetches holding a node-wide slot at most.
    package let slots: Int
    /// How long a fetch holds its node-wide slot at most.
    package let holdFor: Duration
    private var origins: [String: Origin] = [:]
    private var holding: Set<Int> = []
    private var slotWaiters: [(ticket: Int, origin: String, since: ContinuousClock.Instant, continuation: CheckedContinuation<Void, Never>)] = []
    private var nextTicket = 0

    /// One origin's fetches in flight and those waiting for their turn.
    private struct Origin {
        var inFlight = 0
        var waiting: [(ticket: Int, continuation: CheckedContinuation<Bool, Never>)] = []
    }

    /// Creates a budget.
    /// - Parameters:
    ///   - perOrigin: Fetches in flight for one origin at most.
    ///   - queuedPerOrigin: Fetches of one origin waiting at most.
    ///   - maxWait: How long one fetch waits for its origin's turn at most.
    ///   - slots: Fetches holding a node-wide slot at most.
    ///   - holdFor: How long one fetch holds its slot at most.
    package init(perOrigin: Int, queuedPerOrigin: Int, maxWait: Duration, slots: Int, holdFor: Duration) {
        self.perOrigin = max(1, perOrigin)
        self.queuedPerOrigin = max(0, queuedPerOrigin)
        self.maxWait = maxWait
        self.slots = max(1, slots)
        self.holdFor = holdFor
    }

    /// Runs `fetch` within the budget of `origin`.
    /// - Throws: `NodeError.unavailable` when `origin`'s turn does not come (its queue is full,
    ///   or `maxWait` passed); otherwise what `fetch` throws.
    package func run<T: Sendable>(
        for origin: String, _ fetch: @Sendable () async throws(NodeError) -> T
    ) async throws(NodeError) -> T {
        guard await takeTurn(of: origin) else {
            throw .unavailable("Too many signing-key fetches from \(origin.prefix(100)) at once; retry later")
        }
        defer { endTurn(of: origin) }
        let ticket = await takeSlot(for: origin)
        let holdFor = self.holdFor
        let timer = Task { [weak self] in
            try? await Task.sleep(for: holdFor)
            await self?.giveBack(ticket)
        }
        defer {
            timer.cancel()
            giveBack(ticket)
        }
        return try await fetch()
    }

    /// Fetches holding a node-wide slot now (for tests).
    package var holdingSlots: Int { holding.count }

    /// Waits for one of `origin`'s turns. - Returns: `false` when refused or out of time.
    private func takeTurn(of origin: String) async -> Bool {
        var entry = origins[origin] ?? Origin()
        if entry.inFlight < perOrigin {
            entry.inFlight += 1
            origins[origin] = entry
            return true
        }
        guard entry.waiting.count < queuedPerOrigin else { return false }
        nextTicket += 1
        let ticket = nextTicket
        let maxWait = self.maxWait
        let timer = Task { [weak self] in
            try? await Task.sleep(for: maxWait)
            await self?.expire(ticket, of: origin)
        }
        // `endTurn` hands its turn over (`true`) or `expire` gives up (`false`), each once.
        let granted = await withCheckedContinuation { continuation in
            origins[origin, default: Origin()].waiting.append((ticket, continuation))
        }
        timer.cancel()
        return granted
    }

    private func endTurn(of origin: String) {
        guard var entry = origins[origin] else { return }
        if entry.waiting.isEmpty {
            entry.inFlight -= 1
        } else {
            entry.waiting.removeFirst().continuation.resume(returning: true)
        }
        origins[origin] = entry.inFlight > 0 || !entry.waiting.isEmpty ? entry : nil
    }

    private func expire(_ ticket: Int, of origin: String) {
        guard var entry = origins[origin], let index = entry.waiting.firstIndex(where: { $0.ticket == ticket }) else { return }
        entry.waiting.remove(at: index).continuation.resume(returning: false)
        origins[origin] = entry
    }

    private func takeSlot(for origin: String) async -> Int {
        nextTicket += 1
        let ticket = nextTicket
        if holding.count < slots {
            holding.insert(ticket)
            return ticket
        }
        // `giveBack` moves the ticket into `holding` before resuming it.
        await withCheckedContinuation { slotWaiters.append((ticket, origin, .now, $0)) }
        return ticket
    }

    private func giveBack(_ ticket: Int) {
        guard holding.remove(ticket) != nil, !slotWaiters.isEmpty else { return }
        // The oldest waiter once it waited long; else the first of the origin with the fewest
        // fetches in flight.
        let overdue = ContinuousClock.now - slotWaiters[0].since >= holdFor * 2
        let index = overdue ? 0 : slotWaiters.indices.min {
            (origins[slotWaiters[$0].origin]?.inFlight ?? 0) < (origins[slotWaiters[$1].origin]?.inFlight ?? 0)
        } ?? 0
        let next = slotWaiters.remove(at: index)
        holding.insert(next.ticket)
        next.continuation.resume()
    }
}

import Storage

/// The delivery worker's requests in flight and the due deliveries waiting for a slot, in
/// round-robin order across domains (see `DeliveryQueue.fairDue`). A domain holds at most
/// `limits.maxInFlightPerDomain` requests, so an inbox that answers after 25 seconds keeps
/// its own backlog waiting and leaves the other slots to other domains.
///
/// A request that has waited `holdAfter` on the remote server (its `RemoteWait`) gives its slot
/// back and goes on in the background (up to `maxBackground` of them), keeping its domain's
/// share (time spent signing or recording never frees a slot): inboxes that accept
/// a connection and never answer cost their own deliveries' time, never the slots a healthy
/// follower's delivery needs. (The client's bound per peer address keeps many domains on one
/// machine from opening more than a few such requests in the first place.)
package struct DeliveryInFlight: Sendable {
    /// Concurrency limits.
    package let limits: QueueLimits

    /// Nothing in flight yet. - Parameter limits: Requests at once, overall and per domain.
    package init(limits: QueueLimits) {
        self.limits = limits
    }
    /// Deliveries in flight.
    private(set) var ids: Set<Int64> = []
    /// Requests in flight per domain.
    private(set) var perDomain: [String: Int] = [:]
    /// Due deliveries not started yet, in the order they should start.
    private(set) var waiting: [Delivery] = []
    /// The domain of the delivery started last (the next round starts after it).
    private(set) var lastDomain: String?
    /// The requests holding a slot, each with the marker of its request to the remote server.
    private var holding: [Int64: RemoteWait] = [:]
    /// Requests that gave their slot back after waiting `holdAfter`.
    private(set) var background: Set<Int64> = []

    /// How long a request holds its slot before it goes on in the background.
    package static let holdAfter = Duration.seconds(1)
    /// Requests in the background at most, as a multiple of the slots.
    package static let backgroundPerSlot = 4
    package var maxBackground: Int { limits.maxInFlight * Self.backgroundPerSlot }

    /// Requests holding a slot.
    package var count: Int { ids.count - background.count }
    /// Requests in flight, holding a slot or not.
    package var total: Int { ids.count }
    /// Whether another request may start.
    package var hasRoom: Bool { count < limits.maxInFlight }
    /// Whether a waiting delivery could start now.
    package var canStartWaiting: Bool { hasRoom && waiting.contains { room(for: $0.domain) } }

    /// Replaces the waiting list with a fresh read of the queue, leaving out what is in flight.
    package mutating func refill(_ deliveries: [Delivery]) {
        var seen = ids
        waiting = deliveries.filter { seen.insert($0.id).inserted }
    }

    /// Takes the waiting deliveries that may start now (their domain has room), in order, and
    /// counts them as in flight.
    package mutating func take() -> [Delivery] {
        var started: [Delivery] = []
        var kept: [Delivery] = []
        for delivery in waiting {
            if hasRoom, room(for: delivery.domain) {
                ids.insert(delivery.id)
                holding[delivery.id] = RemoteWait()
                perDomain[delivery.domain, default: 0] += 1
                lastDomain = delivery.domain
                started.append(delivery)
            } else {
                kept.append(delivery)
            }
        }
        waiting = kept
        return started
    }

    /// Counts a delivery's request as ended.
    package mutating func finish(_ delivery: Delivery) {
        guard ids.remove(delivery.id) != nil else { return }
        if background.remove(delivery.id) == nil { holding[delivery.id] = nil }
        let left = (perDomain[delivery.domain] ?? 1) - 1
        perDomain[delivery.domain] = left > 0 ? left : nil
    }

    /// Moves the requests that have waited `holdAfter` on their server to the background, while
    /// there is room there.
    /// - Returns: How many slots were given back.
    @discardableResult
    package mutating func releaseSlow(now: ContinuousClock.Instant) -> Int {
        let due = holding.filter { $0.value.hasWaited(Self.holdAfter, at: now) }.map(\.key).sorted()
        let moving = due.prefix(max(0, maxBackground - background.count))
        for id in moving {
            holding[id] = nil
            background.insert(id)
        }
        return moving.count
    }

    /// The marker the delivery's task runs with (`RemoteWait.current`).
    package func remoteWait(of delivery: Delivery) -> RemoteWait? { holding[delivery.id] }

    /// Whether a request holds a slot (the worker then keeps a timer running).
    package var hasHeldRequests: Bool { !holding.isEmpty }

    private func room(for domain: String) -> Bool {
        (perDomain[domain] ?? 0) < limits.maxInFlightPerDomain
    }
}

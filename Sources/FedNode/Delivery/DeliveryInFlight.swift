import Storage

/// The delivery worker's requests in flight and the due deliveries waiting for a slot, in
/// round-robin order across domains (see `DeliveryQueue.fairDue`). A domain holds at most
/// `limits.maxInFlightPerDomain` requests, so an inbox that answers after 25 seconds keeps
/// its own backlog waiting and leaves the other slots to other domains.
struct DeliveryInFlight: Sendable {
    /// Concurrency limits.
    let limits: QueueLimits
    /// Deliveries in flight.
    private(set) var ids: Set<Int64> = []
    /// Requests in flight per domain.
    private(set) var perDomain: [String: Int] = [:]
    /// Due deliveries not started yet, in the order they should start.
    private(set) var waiting: [Delivery] = []
    /// The domain of the delivery started last (the next round starts after it).
    private(set) var lastDomain: String?

    /// Requests in flight.
    var count: Int { ids.count }
    /// Whether another request may start.
    var hasRoom: Bool { count < limits.maxInFlight }
    /// Whether a waiting delivery could start now.
    var canStartWaiting: Bool { hasRoom && waiting.contains { room(for: $0.domain) } }

    /// Replaces the waiting list with a fresh read of the queue, leaving out what is in flight.
    mutating func refill(_ deliveries: [Delivery]) {
        var seen = ids
        waiting = deliveries.filter { seen.insert($0.id).inserted }
    }

    /// Takes the waiting deliveries that may start now (their domain has room), in order, and
    /// counts them as in flight.
    mutating func take() -> [Delivery] {
        var started: [Delivery] = []
        var kept: [Delivery] = []
        for delivery in waiting {
            if hasRoom, room(for: delivery.domain) {
                ids.insert(delivery.id)
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
    mutating func finish(_ delivery: Delivery) {
        guard ids.remove(delivery.id) != nil else { return }
        let left = (perDomain[delivery.domain] ?? 1) - 1
        perDomain[delivery.domain] = left > 0 ? left : nil
    }

    private func room(for domain: String) -> Bool {
        (perDomain[domain] ?? 0) < limits.maxInFlightPerDomain
    }
}

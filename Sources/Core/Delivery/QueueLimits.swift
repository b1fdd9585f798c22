/// How much of a node's queue work runs at once, and how much of it one remote domain may hold.
/// A slow domain then costs only its own items: it fills its own slots, never all of them.
public struct QueueLimits: Sendable, Equatable {
    /// Items (inbox activities or deliveries) in flight at once, across all domains.
    public var maxInFlight: Int
    /// Items in flight at once for one domain.
    public var maxInFlightPerDomain: Int

    /// Creates limits; the defaults are 16 in flight, 4 per domain.
    public init(maxInFlight: Int = 16, maxInFlightPerDomain: Int = 4) {
        self.maxInFlight = max(1, maxInFlight)
        self.maxInFlightPerDomain = max(1, min(maxInFlightPerDomain, self.maxInFlight))
    }
}

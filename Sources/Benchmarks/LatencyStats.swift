/// Percentiles of a set of durations (nearest-rank, as load testers usually report them).
public struct LatencyStats: Sendable {
    /// The sorted samples, in nanoseconds.
    private let sorted: [UInt64]

    /// Summarises `samples` (nanoseconds).
    public init(_ samples: [UInt64]) {
        sorted = samples.sorted()
    }

    /// How many samples there are.
    public var count: Int { sorted.count }

    /// The `p`-th percentile (0...100) in milliseconds; 0 without samples.
    public func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return Double(sorted[min(sorted.count - 1, max(0, rank - 1))]) / 1e6
    }

    /// Median in milliseconds.
    public var p50: Double { percentile(50) }
    /// 99th percentile in milliseconds.
    public var p99: Double { percentile(99) }
}

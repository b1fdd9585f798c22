import Foundation

/// Bounds for a ``RemoteMediaCache``.
public struct RemoteCacheLimits: Sendable, Equatable {
    /// Total bytes of cached files; least recently used files go first beyond it.
    public var maxTotalBytes: Int
    /// Longest time a file is served after it was fetched; older files are fetched again.
    public var maxAge: TimeInterval
    /// Largest single remote file accepted; larger answers are refused, not cached.
    public var maxFileBytes: Int

    /// Creates limits.
    /// - Parameters:
    ///   - maxTotalBytes: Disk budget. Default 1 GiB.
    ///   - maxAge: Freshness limit. Default 7 days.
    ///   - maxFileBytes: Per-file cap. Default 40 MiB.
    public init(maxTotalBytes: Int = 1 << 30, maxAge: TimeInterval = 7 * 86_400, maxFileBytes: Int = 40 << 20) {
        self.maxTotalBytes = maxTotalBytes
        self.maxAge = maxAge
        self.maxFileBytes = maxFileBytes
    }
}

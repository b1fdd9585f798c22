import Foundation

/// Decides which ``RemoteMediaCache`` entries to drop; pure, with the clock passed in.
package enum CacheEvictionPolicy {
    /// The entries to remove so the rest are fresh and within the size budget.
    ///
    /// Every entry older than `maxAge` goes; then entries leave in order of last access
    /// (oldest first, ties by fetch time) until the total fits. `keeping` is never chosen
    /// for size, so a file just stored survives its own eviction pass.
    /// - Parameters:
    ///   - entries: The whole index.
    ///   - limits: The bounds.
    ///   - now: The current time.
    ///   - keeping: A key to spare from size eviction.
    /// - Returns: Entries to delete.
    package static func victims(
        of entries: [CacheEntry], limits: RemoteCacheLimits, now: Date, keeping: String?
    ) -> [CacheEntry] {
        let expired = entries.filter { !isFresh($0, limits: limits, now: now) }
        var remaining = entries.filter { isFresh($0, limits: limits, now: now) }
        remaining.sort { ($0.lastAccess, $0.fetchedAt) < ($1.lastAccess, $1.fetchedAt) }
        var total = remaining.reduce(0) { $0 + $1.size }
        var victims = expired
        for entry in remaining where total > limits.maxTotalBytes && entry.key != keeping {
            victims.append(entry)
            total -= entry.size
        }
        return victims
    }

    /// Whether an entry may still be served.
    /// - Parameters:
    ///   - entry: The entry.
    ///   - limits: The bounds.
    ///   - now: The current time.
    package static func isFresh(_ entry: CacheEntry, limits: RemoteCacheLimits, now: Date) -> Bool {
        now.timeIntervalSince(entry.fetchedAt) <= limits.maxAge
    }
}

/// An async counting semaphore: at most `limit` holders at once, the rest wait in
/// arrival order.
///
/// Waiting is not cancellable: a cancelled task still gets its turn and should give
/// the slot back promptly.
package actor ConcurrencyLimiter {
    /// Maximum simultaneous holders.
    package let limit: Int
    private var active = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Creates a limiter.
    /// - Parameter limit: Maximum simultaneous holders; values below 1 count as 1.
    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` while holding a slot, waiting for one if all are taken.
    /// - Parameter body: The work to bound.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    package func withSlot<T: Sendable, E: Error>(
        _ body: @Sendable () async throws(E) -> T
    ) async throws(E) -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        if active < limit {
            active += 1
            return
        }
        // The slot is handed over by `release`, so `active` already counts us.
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            active -= 1
        } else {
            waiters.removeFirst().resume()
        }
    }
}

import ServiceLifecycle

/// Work started off a request or worker path that nobody waits for (reading a new followee's
/// outbox), bounded node-wide: at most `limit` jobs run at once, at most `maxWaiting` wait for a
/// slot, and a job whose key is already running or waiting is not started twice. Past those
/// bounds a job is dropped: such work improves what people see but nothing depends on it.
///
/// It is a service of the application: when the node shuts down, waiting jobs are dropped,
/// running ones are cancelled and waited for, and nothing new starts, so no job outlives the
/// node and writes after it stopped.
package actor BackgroundJobs: Service {
    /// Jobs running at once.
    package let limit: Int
    /// Jobs waiting for a slot.
    package let maxWaiting: Int
    /// How many jobs have finished since the node started.
    private(set) var completed = 0
    private var running: [String: Task<Void, Never>] = [:]
    private var waiting: [(key: String, work: @Sendable () async -> Void)] = []
    private var stopped = false

    /// Creates an empty pool.
    package init(limit: Int = 2, maxWaiting: Int = 100) {
        self.limit = limit
        self.maxWaiting = maxWaiting
    }

    /// Runs `work` now if a slot is free, later if not, or never when `key` is already
    /// running or waiting, too many jobs wait, or the node is shutting down.
    /// - Returns: Whether the job was taken.
    @discardableResult
    package func start(_ key: String, _ work: @escaping @Sendable () async -> Void) -> Bool {
        guard !stopped, running[key] == nil, !waiting.contains(where: { $0.key == key }) else { return false }
        guard running.count < limit else {
            guard waiting.count < maxWaiting else { return false }
            waiting.append((key, work))
            return true
        }
        launch(key, work)
        return true
    }

    /// Waits for the node's shutdown, then stops every job.
    package func run() async {
        try? await gracefulShutdown()
        await stopAll()
    }

    /// Drops the waiting jobs, cancels the running ones and returns when they have ended.
    package func stopAll() async {
        stopped = true
        waiting.removeAll()
        let tasks = Array(running.values)
        tasks.forEach { $0.cancel() }
        for task in tasks { await task.value }
    }

    private func launch(_ key: String, _ work: @escaping @Sendable () async -> Void) {
        running[key] = Task {
            await work()
            self.finish(key)
        }
    }

    private func finish(_ key: String) {
        running[key] = nil
        completed += 1
        guard !stopped, !waiting.isEmpty else { return }
        let next = waiting.removeFirst()
        launch(next.key, next.work)
    }
}

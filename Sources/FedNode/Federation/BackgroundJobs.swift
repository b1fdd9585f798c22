/// Work started off a request or worker path that nobody waits for (reading a new followee's
/// outbox), bounded node-wide: at most `limit` jobs run at once, at most `maxWaiting` wait for a
/// slot, and a job whose key is already running or waiting is not started twice. Past those
/// bounds a job is dropped: such work improves what people see but nothing depends on it.
actor BackgroundJobs {
    /// Jobs running at once.
    let limit: Int
    /// Jobs waiting for a slot.
    let maxWaiting: Int
    /// How many jobs have finished since the node started.
    private(set) var completed = 0
    private var running: Set<String> = []
    private var waiting: [(key: String, work: @Sendable () async -> Void)] = []

    /// Creates an empty pool.
    init(limit: Int = 2, maxWaiting: Int = 100) {
        self.limit = limit
        self.maxWaiting = maxWaiting
    }

    /// Runs `work` now if a slot is free, later if not, or never when `key` is already
    /// running or waiting, or too many jobs wait.
    /// - Returns: Whether the job was taken.
    @discardableResult
    func start(_ key: String, _ work: @escaping @Sendable () async -> Void) -> Bool {
        guard !running.contains(key), !waiting.contains(where: { $0.key == key }) else { return false }
        guard running.count < limit else {
            guard waiting.count < maxWaiting else { return false }
            waiting.append((key, work))
            return true
        }
        launch(key, work)
        return true
    }

    private func launch(_ key: String, _ work: @escaping @Sendable () async -> Void) {
        running.insert(key)
        Task {
            await work()
            self.finish(key)
        }
    }

    private func finish(_ key: String) {
        running.remove(key)
        completed += 1
        guard !waiting.isEmpty else { return }
        let next = waiting.removeFirst()
        launch(next.key, next.work)
    }
}

import Synchronization

/// Whether, and since when, a task is waiting on a remote server: `CurlHTTPClient.execute`
/// marks the task's `current` marker for as long as a request runs. The inbox and delivery
/// workers give an item's slot back only once it has *waited on a server* for a while, never
/// for time spent on the database or the CPU (that would only add work to a busy node).
public final class RemoteWait: Sendable {
    /// The marker of the running task, set by the worker that started it.
    @TaskLocal public static var current: RemoteWait?
    private let state = Mutex<(depth: Int, since: ContinuousClock.Instant?)>((0, nil))

    /// A marker for one item or delivery.
    public init() {}

    /// A request started.
    package func begin(at now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            if state.depth == 0 { state.since = now }
            state.depth += 1
        }
    }

    /// A request ended.
    package func end() {
        state.withLock { state in
            state.depth = max(0, state.depth - 1)
            if state.depth == 0 { state.since = nil }
        }
    }

    /// Whether a request has been running for at least `duration` at `now`.
    package func hasWaited(_ duration: Duration, at now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in state.since.map { now - $0 >= duration } ?? false }
    }
}

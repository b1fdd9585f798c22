import Synchronization

/// Wakes a background worker when new work was queued, so it does not wait for its next poll.
/// Signals coalesce: many `notify()` calls while the worker is busy cause one extra pass.
public final class WorkSignal: Sendable {
    private let state = Mutex<(pending: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    /// Creates a signal with nothing pending.
    public init() {}

    /// Records that work is waiting and wakes the worker if it is asleep.
    public func notify() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending = true
            return nil
        }
        waiter?.resume()
    }

    /// Returns when notified or after `timeout`, whichever comes first.
    public func wait(timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForNotify() }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
            self.notify()  // releases the waiter if the timeout won
            await group.waitForAll()
            self.state.withLock { $0.pending = false }
        }
    }

    private func waitForNotify() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.pending {
                    state.pending = false
                    return true
                }
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}

import ServiceLifecycle
import Synchronization

/// Which background workers of a node are running, for `/readyz`.
public final class WorkerRegistry: Sendable {
    private let running = Mutex<[String: Int]>([:])

    /// Creates an empty registry.
    public init() {}

    /// Whether a worker named `name` is running now.
    public func isRunning(_ name: String) -> Bool { running.withLock { ($0[name] ?? 0) > 0 } }

    /// Wraps `service` so the registry knows it runs while its `run()` does.
    package func tracking(_ service: some Service, as name: String) -> some Service {
        TrackedService(inner: service, name: name, registry: self)
    }

    fileprivate func mark(_ name: String, running delta: Int) {
        running.withLock { $0[name, default: 0] += delta }
    }
}

/// A service that reports to a `WorkerRegistry` while it runs.
private struct TrackedService<Inner: Service>: Service {
    let inner: Inner
    let name: String
    let registry: WorkerRegistry

    func run() async throws {
        registry.mark(name, running: 1)
        defer { registry.mark(name, running: -1) }
        try await inner.run()
    }
}

/// A running observation of one table: calls back after every transaction of this process that
/// changed it, rows written by triggers included (on SQLite a GRDB region observation; on
/// PostgreSQL every committed write of this process). Workers use it to wake when work is
/// queued instead of polling; since a worker also wakes on a timeout, a missed call only
/// delays work.
public struct ChangeObservation: Sendable {
    private let cancellation: @Sendable () -> Void

    init(cancel: @escaping @Sendable () -> Void) { cancellation = cancel }

    /// Stops the observation.
    public func cancel() { cancellation() }
}

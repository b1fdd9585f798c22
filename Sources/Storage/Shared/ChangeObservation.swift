/// A running observation of one table: calls back after every transaction that changed it,
/// rows written by triggers included (on SQLite a GRDB region observation of this process; on
/// PostgreSQL the changes of every process on the database, announced with `NOTIFY`). Workers use it to wake when work is
/// queued instead of polling; since a worker also wakes on a timeout, a missed call only
/// delays work.
public struct ChangeObservation: Sendable {
    private let cancellation: @Sendable () -> Void

    init(cancel: @escaping @Sendable () -> Void) { cancellation = cancel }

    /// Stops the observation.
    public func cancel() { cancellation() }
}

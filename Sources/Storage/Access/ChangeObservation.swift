import GRDB

/// A running observation of one table: calls back after every transaction of this process that
/// changed it, rows written by triggers included (GRDB region observation). Workers use it to
/// wake when work is queued instead of polling; errors of the observation are ignored, since a
/// worker also wakes on a timeout.
public struct ChangeObservation: Sendable {
    let cancellable: AnyDatabaseCancellable

    /// Starts observing `table` in `database`; `onChange` runs after each committed change.
    init(table: String, in database: NodeDatabase, onChange: @escaping @Sendable () -> Void) {
        cancellable = DatabaseRegionObservation(tracking: Table(table))
            .start(in: database.pool, onError: { _ in }, onChange: { _ in onChange() })
    }

    /// Stops the observation.
    public func cancel() { cancellable.cancel() }
}

import Foundation
import GRDB
import Synchronization

/// The federation policy (domain blocks, allow-list mode and allows) held in memory, so the
/// inbox's per-request domain check costs no database read.
///
/// Every Storage method that changes the policy calls `FederationPolicyCache.changed(in:)`,
/// which raises a process-wide generation once its transaction commits; a copy read at an
/// older generation is read again. Changes made by another process on the same database (the
/// `fednode` command line, another `fednode serve` on PostgreSQL) are picked up within
/// `maxAge`, since a copy is reloaded at least that often; on PostgreSQL they are announced
/// and picked up at once.
public final class FederationPolicyCache: Sendable {
    /// How long a copy is trusted without a change seen in this process.
    public static let maxAge: Duration = .seconds(2)
    /// Raised after every committed change of the policy made by this process.
    private static let generation = Atomic<UInt64>(0)
    private let database: NodeDatabase
    /// The copy, when it was read, and the generation it was read at.
    private let state = Mutex<(policy: FederationPolicy?, loadedAt: ContinuousClock.Instant, generation: UInt64)>((nil, .now, 0))

    /// Announcements of other processes' changes (PostgreSQL).
    private let observations: [ChangeObservation]

    /// A cache of `database`'s policy, empty until first asked. On a database several
    /// processes share, a change by any of them is announced and raises the generation at
    /// once, rather than within `maxAge`.
    public init(database: NodeDatabase) {
        self.database = database
        observations = !database.isShared ? [] : PostgresMigrations.announcedChanges.map { table in
            database.observe(table: table) { Self.generation.add(1, ordering: .sequentiallyConsistent) }
        }
    }

    deinit { for observation in observations { observation.cancel() } }

    /// Marks the policy changed once the transaction of `db` commits (nothing on rollback).
    static func changed(in db: SQLSession) {
        db.afterNextTransaction(onCommit: { generation.add(1, ordering: .sequentiallyConsistent) })
    }

    /// The policy in force: the copy when it is current, else read again.
    /// - Throws: A `DatabaseError` when the policy cannot be read.
    public func current() async throws -> FederationPolicy {
        let generation = Self.generation.load(ordering: .sequentiallyConsistent)
        let cached = state.withLock { state -> FederationPolicy? in
            guard let policy = state.policy, state.generation == generation,
                  ContinuousClock.now - state.loadedAt < Self.maxAge else { return nil }
            return policy
        }
        if let cached { return cached }
        // Read after taking the generation: a change committed meanwhile raises it past the
        // one stored with this copy, so the copy is not trusted for long.
        let loaded = try await database.read { try FederationPolicy.load(in: $0.session) }
        state.withLock { $0 = (loaded, .now, generation) }
        return loaded
    }
}

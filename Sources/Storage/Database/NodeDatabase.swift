import Foundation
import GRDB

/// The node's SQLite database: one WAL-mode `DatabasePool`, opened once per process.
///
/// Every action that changes state runs inside one `write {}` so it lands whole or not at all.
public final class NodeDatabase: Sendable {
    /// The pool every reader and writer goes through.
    public let pool: DatabasePool
    /// Path of the SQLite file.
    public let path: String

    /// Opens (creating if needed) the database at `path` and applies pending migrations.
    /// - Parameters:
    ///   - path: File path of the SQLite database; its directory is created when missing.
    ///   - migrate: Whether to apply pending migrations now (the `migrate` command passes `true`
    ///     explicitly; `serve` migrates at start as Mastodon's docker image does).
    /// - Throws: `StorageError.cannotOpen` when the file cannot be created or opened.
    public init(path: String, migrate: Bool = true) throws(StorageError) {
        self.path = path
        do {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            pool = try DatabasePool(path: path, configuration: Self.configuration)
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
        if migrate { try self.migrate() }
    }

    /// Applies every migration not yet applied; a no-op when the schema is current.
    /// - Returns: The identifiers of the migrations applied by this call.
    /// - Throws: `StorageError.migrationFailed`.
    @discardableResult
    public func migrate() throws(StorageError) -> [String] {
        do {
            let migrator = Migrations.migrator
            let before = try pool.read { try migrator.appliedIdentifiers($0) }
            try migrator.migrate(pool)
            let after = try pool.read { try migrator.appliedIdentifiers($0) }
            // In the order they ran (registration order), not alphabetical: names need not sort.
            return migrator.migrations.filter { after.contains($0) && !before.contains($0) }
        } catch {
            throw .migrationFailed("\(error)")
        }
    }

    /// Identifiers of every migration the code knows, in order.
    public static var knownMigrations: [String] { Migrations.migrator.migrations }

    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // WAL + NORMAL survives a process crash (the inbox's promise); only an OS crash can
            // lose the last commits, as with Mastodon's default Postgres `synchronous_commit`.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // 16 MiB of page cache per connection (SQLite's default is 2 MiB): index pages of a
            // large database stay in memory instead of being read again for every page view.
            try db.execute(sql: "PRAGMA cache_size = -16000")
        }
        return configuration
    }
}

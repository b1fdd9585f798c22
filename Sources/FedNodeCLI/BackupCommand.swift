import ArgumentParser
import Core
import FedNode
import Foundation
import Storage

/// `fednode backup --to FILE`: a consistent copy of the database while the node keeps serving.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the database into one file, consistent as of one instant, while the node runs.",
        discussion: "Media files live in DATA_DIR/media and DATA_DIR/cache: copy DATA_DIR/media alongside (the cache can be fetched again).")

    @OptionGroup var options: NodeOptions
    @Option(help: "The backup file to write (replaced only once the new copy is complete).") var to: String

    func run() async throws {
        let configuration = try options.makeConfiguration()
        if configuration.databaseURL != nil {
            throw ValidationError("backup copies a SQLite database; on PostgreSQL use pg_dump (or `fednode migrate-data` to copy into SQLite)")
        }
        guard FileManager.default.fileExists(atPath: configuration.databasePath) else {
            throw ValidationError("no database at \(configuration.databasePath)")
        }
        do {
            let database = try NodeDatabase(path: configuration.databasePath, migrate: false)
            let summary = try await database.backup(to: to)
            print("Backed up \(configuration.databasePath) to \(to) (\(summary.bytes) bytes, schema \(summary.schema)).")
        } catch {
            throw ValidationError("backup failed: \(error)")
        }
    }
}

/// `fednode restore --from FILE`: replaces the database of a stopped node with a backup.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the database with a backup made by `fednode backup` (the node must be stopped).")

    @OptionGroup var options: NodeOptions
    @Option(help: "The backup file to restore.") var from: String

    func run() async throws {
        let configuration = try options.makeConfiguration()
        if configuration.databaseURL != nil {
            throw ValidationError("restore replaces a SQLite database; on PostgreSQL use pg_restore (or `fednode migrate-data` from a SQLite backup)")
        }
        let lock: DatabaseLock
        do { lock = try DatabaseLock(databasePath: configuration.databasePath) } catch {
            throw ValidationError(error.message)
        }
        defer { withExtendedLifetime(lock) {} }
        do {
            let summary = try NodeDatabase.restore(from: from, to: configuration.databasePath)
            print("Restored \(from) to \(configuration.databasePath) (\(summary.bytes) bytes, schema \(summary.schema)); pending migrations run at the next start.")
        } catch {
            throw ValidationError("restore failed: \(error)")
        }
    }
}

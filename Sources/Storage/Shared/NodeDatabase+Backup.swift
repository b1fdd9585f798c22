import Dispatch
import Foundation
import GRDB

/// What a backup or restore copied.
public struct BackupSummary: Sendable, Equatable {
    /// Size of the written file in bytes.
    public var bytes: Int64
    /// The newest migration the copied schema has.
    public var schema: String
}

extension NodeDatabase {
    /// Copies the whole database into a single self-contained file at `path`, consistent as of
    /// one instant (SQLite's online backup API in one step, from a read transaction), while the
    /// node keeps serving: writers are not blocked, and what they commit meanwhile is simply
    /// not in the copy. The copy is written beside `path`, checked (`PRAGMA integrity_check`),
    /// synced, then renamed into place, so `path` is either the previous file or a whole backup.
    /// Runs on a thread of its own, never on the cooperative pool.
    /// - Throws: `StorageError.database` when the copy or its check fails.
    public func backup(to path: String) async throws(StorageError) -> BackupSummary {
        guard !isPostgres else { throw .database("backups copy a SQLite database; on PostgreSQL use pg_dump") }
        let pool = self.pool
        let result: Result<BackupSummary, StorageError> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .utility).async {
                continuation.resume(returning: Result { () throws(StorageError) in try Self.copy(from: pool, to: path) })
            }
        }
        return try result.get()
    }

    /// Replaces the database file at `path` with the backup at `backup`, for a node that is
    /// not running. The backup is checked first (a SQLite file, intact, a FedNode schema no
    /// newer than this build knows); the previous file and its WAL are replaced only once the
    /// copy is complete. Migrations newer than the backup run at the next start.
    /// - Throws: `StorageError.database` naming what is wrong with the backup or the copy.
    public static func restore(from backup: String, to path: String) throws(StorageError) -> BackupSummary {
        guard FileManager.default.fileExists(atPath: backup) else { throw .database("no backup file at \(backup)") }
        let source: DatabaseQueue
        do {
            var configuration = Configuration()
            configuration.readonly = true
            source = try DatabaseQueue(path: backup, configuration: configuration)
        } catch { throw .database("\(backup) cannot be opened as a SQLite database: \(error)") }
        let applied = try check(source, named: backup)
        let known = Set(knownMigrations)
        guard applied.allSatisfy(known.contains) else {
            throw .database("\(backup) has migrations this build does not know (\(applied.filter { !known.contains($0) }.joined(separator: ", "))): restore it with a newer fednode")
        }
        let summary = try copy(from: source, to: path)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        return summary
    }

    /// `PRAGMA integrity_check` and `foreign_key_check` of the live database: empty when intact.
    /// On PostgreSQL, which checks its own pages and constraints, there is nothing to add: empty.
    public func integrityProblems() async throws -> [String] {
        guard !isPostgres else { return [] }
        // Counted as a read in flight (it always waits on the pool's queues), so reads that
        // run in place never wait for the reader it holds (`ReaderGate`).
        _ = readers.enter()
        defer { readers.leave() }
        return try await pool.read { try Self.problems(in: $0) }
    }

    // MARK: - Copying

    private static func copy(from source: some DatabaseReader, to path: String) throws(StorageError) -> BackupSummary {
        let partial = path + ".partial"
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: partial + suffix) }
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let destination = try DatabaseQueue(path: partial)
            try source.backup(to: destination)  // all pages in one step: one consistent snapshot
            let applied = try check(destination, named: partial)
            try destination.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
            try destination.close()
            try fsync(file: partial)
            guard rename(partial, path) == 0 else { throw StorageError.database("cannot move the copy to \(path): errno \(errno)") }
            try fsync(file: (path as NSString).deletingLastPathComponent)
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
            return BackupSummary(bytes: size, schema: knownMigrations.last(where: applied.contains) ?? applied.last ?? "none")
        } catch let error as StorageError {
            try? FileManager.default.removeItem(atPath: partial)
            throw error
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw .database("copying to \(path): \(error)")
        }
    }

    private static func check(_ reader: some DatabaseReader, named name: String) throws(StorageError) -> [String] {
        do {
            return try reader.read { db in
                let problems = try problems(in: db)
                guard problems.isEmpty else { throw StorageError.database("\(name) is damaged: \(problems.prefix(5).joined(separator: "; "))") }
                guard try db.tableExists("grdb_migrations"), try db.tableExists("accounts") else {
                    throw StorageError.database("\(name) is not a FedNode database")
                }
                return try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
            }
        } catch let error as StorageError { throw error } catch {
            throw .database("\(name) cannot be read as a SQLite database: \(error)")
        }
    }

    private static func problems(in db: Database) throws -> [String] {
        let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
        let foreignKeys = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { row in
            "foreign key of \(row[0] as String? ?? "?") row \(row[1] as Int64? ?? 0) points nowhere"
        }
        return integrity + foreignKeys
    }

    private static func fsync(file path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw StorageError.database("cannot open \(path) to sync it") }
        defer { close(descriptor) }
        guard Foundation.fsync(descriptor) == 0 || errno == EINVAL else { throw StorageError.database("fsync of \(path) failed") }
    }
}

import ArgumentParser
import Foundation
import Storage

/// `fednode migrate-data --from sqlite:PATH --to postgres://…`: copies a node's data between
/// engines (SQLite to PostgreSQL, or back), into an empty database.
struct MigrateDataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-data",
        abstract: "Copy a node's data into another database (SQLite or PostgreSQL), for a node that is stopped.",
        discussion: """
            Each side is `sqlite:PATH` (or a path) or a PostgreSQL URL such as postgres://fednode@localhost/fednode. \
            The target must be empty (a new database); both are migrated to the current schema first. \
            The copy is one transaction: the target gets everything or nothing. \
            Media stay in the data directory: start the node on the new database with the same --data-dir.
            """)

    @Option(help: "The database to copy from: sqlite:PATH, a SQLite file path, or postgres://…") var from: String
    @Option(help: "The database to copy into (empty): sqlite:PATH, a SQLite file path, or postgres://…") var to: String

    func run() throws {
        let source = try open(from, mustExist: true)
        let target = try open(to, mustExist: false)
        let started = Date()
        let report = try DataMigration.copy(from: source, to: target) { table, rows in
            if rows > 0 { print("  \(table): \(rows)") }
        }
        print("Copied \(report.totalRows) rows in \(report.tables.count) tables from \(source.path) to \(target.path) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s.")
    }

    private func open(_ location: String, mustExist: Bool) throws -> NodeDatabase {
        let path = location.hasPrefix("sqlite:") ? String(location.dropFirst("sqlite:".count)) : location
        if DatabaseURL(location) == nil {
            guard !location.contains("://") else { throw ValidationError("\(location) is neither sqlite:PATH nor a postgres:// URL") }
            if mustExist && !FileManager.default.fileExists(atPath: path) { throw ValidationError("no SQLite database at \(path)") }
        }
        do {
            return try NodeDatabase(location: path, migrate: false)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}

import Foundation
import Testing
import TestSupport
@testable import Storage

/// The engines a storage test runs on: SQLite always; PostgreSQL too when
/// `FEDNODE_TEST_DATABASE_URL` names a database (`make test-postgres` starts a throwaway cluster
/// and sets it). Each PostgreSQL test gets a database of its own, created beside that one.
enum TestEngine: String, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// The PostgreSQL database the tests may create databases beside, if any.
    static let postgresURL: DatabaseURL? = ProcessInfo.processInfo.environment["FEDNODE_TEST_DATABASE_URL"].flatMap(DatabaseURL.init)

    /// SQLite, and PostgreSQL when one is configured.
    static let all: [TestEngine] = postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]

    /// A fresh, migrated database on this engine (a file in `dir`, or a new PostgreSQL database).
    func open(_ dir: TemporaryDirectory, migrate: Bool = true) throws -> NodeDatabase {
        switch self {
        case .sqlite:
            return try NodeDatabase(path: dir.file("node.sqlite"), migrate: migrate)
        case .postgres:
            return try NodeDatabase(url: try Self.freshPostgresDatabase(), migrate: migrate)
        }
    }

    /// Creates an empty PostgreSQL database next to `postgresURL` and returns its URL.
    static func freshPostgresDatabase() throws -> DatabaseURL {
        guard var url = postgresURL else { throw StorageError.database("FEDNODE_TEST_DATABASE_URL is not set") }
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        var arguments = ["-U", url.user, "-h", url.socketDirectory ?? url.host]
        if url.socketDirectory == nil { arguments += ["-p", String(url.port)] }
        var environment = ProcessInfo.processInfo.environment
        if let password = url.password { environment["PGPASSWORD"] = password }
        guard let createdb = ChildProcess.which("createdb") else { throw StorageError.database("createdb is not installed") }
        let created = try ChildProcess.run(createdb, arguments + [String(name)], environment: environment)
        guard created.status == 0 else { throw StorageError.database("createdb \(name) failed: \(created.stderr)") }
        url.database = String(name)
        return url
    }
}

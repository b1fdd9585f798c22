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
    func open(
        _ dir: TemporaryDirectory, migrate: Bool = true, groupCommitObserver: (@Sendable (_ durable: Bool, _ groupSize: Int) -> Void)? = nil
    ) throws -> NodeDatabase {
        switch self {
        case .sqlite:
            return try NodeDatabase(path: dir.file("node.sqlite"), migrate: migrate, groupCommitObserver: groupCommitObserver)
        case .postgres:
            return try NodeDatabase(url: try Self.freshPostgresDatabase(), migrate: migrate, groupCommitObserver: groupCommitObserver)
        }
    }

    /// Creates an empty PostgreSQL database next to `postgresURL` and returns its URL.
    static func freshPostgresDatabase() throws -> DatabaseURL {
        guard let url = DatabaseURL(try PostgresTestDatabase.fresh(migrated: false)) else { throw StorageError.database("bad test database URL") }
        return url
    }
}

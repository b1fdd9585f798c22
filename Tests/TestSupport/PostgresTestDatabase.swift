import Foundation

/// The PostgreSQL server the tests may use, when `FEDNODE_TEST_DATABASE_URL` names a database on
/// it (`make test-postgres` starts a throwaway cluster and sets it): each test creates a fresh
/// database of its own beside that one.
public enum PostgresTestDatabase {
    /// The configured URL, if any.
    public static let url: String? = ProcessInfo.processInfo.environment["FEDNODE_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// A database already migrated to the current schema (`make test-postgres` makes it), which
    /// `fresh()` copies instead of starting empty: a copy takes a tenth of a second, migrating a
    /// new database half a second of the server's CPU, for each of the hundreds of test nodes.
    /// (The storage tests still migrate empty databases of their own.)
    public static let template: String? = ProcessInfo.processInfo.environment["FEDNODE_TEST_DATABASE_TEMPLATE"].flatMap { $0.isEmpty ? nil : $0 }

    /// Creates a database on the configured server, empty or (`migrated`, when a `template` is
    /// named) a copy of the template; returns its URL.
    public static func fresh(migrated: Bool = true) throws -> String {
        guard let url, let components = URLComponents(string: url), let user = components.user else {
            throw ChildProcess.SpawnError(description: "FEDNODE_TEST_DATABASE_URL is not a postgres:// URL")
        }
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        let socket = components.queryItems?.first { $0.name == "host" }?.value
        var arguments = ["-U", user, "-h", socket ?? components.host ?? "localhost"]
        if socket == nil, let port = components.port { arguments += ["-p", String(port)] }
        var environment = ProcessInfo.processInfo.environment
        if let password = components.password { environment["PGPASSWORD"] = password }
        guard let createdb = ChildProcess.which("createdb") else { throw ChildProcess.SpawnError(description: "createdb is not installed") }
        if migrated, let template { arguments += ["-T", template] }
        let created = try ChildProcess.run(createdb, arguments + [String(name)], environment: environment)
        guard created.status == 0 else { throw ChildProcess.SpawnError(description: "createdb \(name) failed: \(created.stderr)") }
        var fresh = components
        fresh.path = "/" + name
        return fresh.string ?? url
    }
}

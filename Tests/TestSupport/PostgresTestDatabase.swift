import Foundation

/// The PostgreSQL server the tests may use, when `FEDNODE_TEST_DATABASE_URL` names a database on
/// it (`make test-postgres` starts a throwaway cluster and sets it): each test creates a fresh
/// database of its own beside that one.
public enum PostgresTestDatabase {
    /// The configured URL, if any.
    public static let url: String? = ProcessInfo.processInfo.environment["FEDNODE_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// Creates an empty database on the configured server; returns its URL.
    public static func fresh() throws -> String {
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
        let created = try ChildProcess.run(createdb, arguments + [String(name)], environment: environment)
        guard created.status == 0 else { throw ChildProcess.SpawnError(description: "createdb \(name) failed: \(created.stderr)") }
        var fresh = components
        fresh.path = "/" + name
        return fresh.string ?? url
    }
}

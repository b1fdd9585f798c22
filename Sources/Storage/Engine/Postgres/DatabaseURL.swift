import Foundation

/// Where a PostgreSQL database is: `postgres://user[:password]@host[:port]/database`, as libpq
/// and every PostgreSQL tool write it. A Unix socket is named as libpq names it, by its
/// directory: `postgres://user@/database?host=/run/postgresql` (or a percent-encoded path as
/// the host, `postgres://user@%2Frun%2Fpostgresql/database`).
public struct DatabaseURL: Sendable, Equatable {
    /// The role to connect as.
    public var user: String
    /// Its password, if any (peer or trust authentication needs none).
    public var password: String?
    /// Host name or address (TCP).
    public var host: String
    /// TCP port, or the number in the socket's name.
    public var port: Int
    /// The database name.
    public var database: String
    /// The Unix socket directory, when connecting through one.
    public var socketDirectory: String?

    /// Parses `string`; `nil` unless it is a `postgres://` or `postgresql://` URL with a user
    /// and a database.
    public init?(_ string: String) {
        guard string.hasPrefix("postgres://") || string.hasPrefix("postgresql://"),
              let components = URLComponents(string: string),
              let user = components.percentEncodedUser.flatMap({ $0.removingPercentEncoding }), !user.isEmpty else { return nil }
        let database = String(components.path.dropFirst()).removingPercentEncoding ?? ""
        guard !database.isEmpty, !database.contains("/") else { return nil }
        self.user = user
        password = components.percentEncodedPassword?.removingPercentEncoding
        port = components.port ?? 5432
        self.database = database
        let rawHost = components.percentEncodedHost?.removingPercentEncoding ?? ""
        let queryHost = components.queryItems?.first(where: { $0.name == "host" })?.value
        if let directory = queryHost ?? (rawHost.hasPrefix("/") ? rawHost : nil) {
            socketDirectory = directory
            host = "localhost"
        } else {
            host = rawHost.isEmpty ? "localhost" : rawHost
        }
    }

    /// The socket file (`DIRECTORY/.s.PGSQL.PORT`), when connecting through a Unix socket.
    public var socketPath: String? { socketDirectory.map { "\($0)/.s.PGSQL.\(port)" } }

    /// The URL without its password, for logs and messages.
    public var redacted: String {
        let place = socketDirectory.map { "/\(database)?host=\($0)" } ?? "\(host):\(port)/\(database)"
        return socketDirectory == nil ? "postgres://\(user)@\(place)" : "postgres://\(user)@\(place)"
    }
}

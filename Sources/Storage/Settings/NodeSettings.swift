import GRDB

/// Node-wide settings fixed at first start, such as the domain baked into every actor id.
public enum NodeSettings {
    /// Reads one setting.
    /// - Parameters:
    ///   - key: Setting name (`domain`, `public_url`).
    ///   - db: An open database connection.
    /// - Returns: The stored value, or `nil` when never set.
    public static func value(_ key: String, in db: SQLSession) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM node_settings WHERE key = ?", arguments: [key])
    }

    /// Stores one setting, replacing any previous value.
    public static func set(_ key: String, to value: String, in db: SQLSession) throws {
        try db.execute(
            sql: "INSERT INTO node_settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            arguments: [key, value])
    }
}

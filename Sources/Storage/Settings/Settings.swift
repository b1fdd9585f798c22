import GRDB

// Node-wide settings: the table `node_settings` (NodeSettings).

extension Transaction {
    /// Node-wide settings.
    public var settings: Settings { Settings(db: session) }
}

/// Node-wide settings.
public struct Settings { let db: SQLSession }

extension Settings {
    /// The value stored under `key`.
    public func value(_ key: String) throws -> String? { try NodeSettings.value(key, in: db) }

    /// Stores `value` under `key`, replacing any previous one.
    public func set(_ key: String, to value: String) throws { try NodeSettings.set(key, to: value, in: db) }

    /// Waits until no other process is creating the node's one-time settings (its keys), and
    /// keeps them out until this transaction ends: call it before reading a setting that is
    /// generated when missing, so processes starting together agree on one value.
    public func holdForFirstStart() throws { try db.holdUntilCommit(.firstStart) }
}

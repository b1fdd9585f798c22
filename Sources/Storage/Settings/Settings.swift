import GRDB

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

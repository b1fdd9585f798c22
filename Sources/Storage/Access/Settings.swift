import GRDB

extension Settings {
    /// The value stored under `key`.
    public func value(_ key: String) throws -> String? { try NodeSettings.value(key, in: db) }

    /// Stores `value` under `key`, replacing any previous one.
    public func set(_ key: String, to value: String) throws { try NodeSettings.set(key, to: value, in: db) }
}

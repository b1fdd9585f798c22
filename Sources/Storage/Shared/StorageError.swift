/// What can go wrong in the storage layer.
public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database file could not be created or opened.
    case cannotOpen(path: String, reason: String)
    /// Applying a migration failed; the database keeps its previous schema.
    case migrationFailed(String)
    /// A row that must be unique already exists (username, email, activity id, ...).
    case duplicate(String)
    /// A referenced row does not exist.
    case notFound(String)
    /// Any other SQLite failure.
    case database(String)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open database at \(path): \(reason)"
        case .migrationFailed(let reason): "migration failed: \(reason)"
        case .duplicate(let what): "already exists: \(what)"
        case .notFound(let what): "not found: \(what)"
        case .database(let reason): "database error: \(reason)"
        }
    }
}

import Foundation

extension Migrations {
    /// Refuses a database that a newer build has migrated: its schema has steps this build
    /// does not know, and running on it could misread or damage what those steps added.
    /// - Parameter applied: The identifiers of the steps the database records as applied.
    static func refuseUnknown(_ applied: Set<String>) throws(StorageError) {
        let known = Set(all.map(\.identifier))
        let unknown = applied.subtracting(known).sorted()
        guard unknown.isEmpty else {
            throw .migrationFailed("the database was migrated by a newer fednode (steps this build does not know: "
                + "\(unknown.joined(separator: ", "))); run that version, or restore a backup made before it")
        }
    }
}

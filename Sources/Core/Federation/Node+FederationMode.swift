import Storage

extension Node {
    /// Stores the federation mode given at start (`--federation-mode`), so every process on
    /// the database (the server, the CLI) applies the same policy; nil keeps the stored one.
    /// Switching to allow-list mode drops queued deliveries to domains not allowed.
    package static func storeFederationMode(_ mode: FederationMode?, in database: NodeDatabase) throws(NodeError) {
        guard let mode else { return }
        do { try database.writeBlocking { db in _ = try db.domainAllows.setMode(mode) } } catch {
            throw .configuration("cannot record the federation mode: \(error)")
        }
    }

    /// The federation mode in force.
    public func federationMode() async throws(NodeError) -> FederationMode {
        do { return try await database.read { db in try db.domainAllows.mode() } } catch {
            throw .internal("reading the federation mode: \(error)")
        }
    }
}

import Storage

extension Node {
    /// Refuses when any of `authorities` (`host[:port]`) is blocked, its subdomains included.
    /// - Parameter message: The client-safe reason, given the blocked authority.
    /// - Throws: `NodeError.forbidden` with `message`; `.internal` when the blocks cannot be read.
    func refuseBlocked(_ authorities: some Collection<String> & Sendable, _ message: @Sendable (String) -> String) async throws(NodeError) {
        guard !authorities.isEmpty else { return }
        let blocked: String?
        do { blocked = try await database.read { db in try authorities.first { try db.domainBlocks.isBlocked($0) } } } catch {
            throw .internal("reading domain blocks: \(error)")
        }
        if let blocked { throw .forbidden(message(blocked)) }
    }
}

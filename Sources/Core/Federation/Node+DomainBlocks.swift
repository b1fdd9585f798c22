import Storage

extension Node {
    /// Refuses when any of `authorities` (`host[:port]`) is blocked, its subdomains included, or
    /// not allowed in allow-list mode (the policy held in memory, `FederationPolicyCache`).
    /// - Parameter message: The client-safe reason, given the blocked authority.
    /// - Throws: `NodeError.forbidden` with `message`; `.internal` when the blocks cannot be read.
    package func refuseBlocked(_ authorities: some Collection<String> & Sendable, _ message: @Sendable (String) -> String) async throws(NodeError) {
        guard !authorities.isEmpty else { return }
        let blocked: String?
        do {
            let policy = try await federationPolicy.current()
            blocked = authorities.first { !policy.federates(with: $0) }
        } catch {
            throw .internal("reading domain blocks: \(error)")
        }
        if let blocked { throw .forbidden(message(blocked)) }
    }
}

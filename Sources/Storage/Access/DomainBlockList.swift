import GRDB

extension DomainBlockList {
    /// Whether `authority` (`host[:port]`, any letter case) is blocked, itself or through a
    /// parent domain.
    public func isBlocked(_ authority: String) throws -> Bool { try DomainBlocks.isBlocked(authority, in: db) }

    /// Whether the node blocks the domain of the account `accountId` (cached statement).
    public func blocksDomain(ofAccount accountId: Int64) throws -> Bool {
        try APIQuerySupport.cachedCount(db, "SELECT COUNT(*) FROM accounts a JOIN domain_blocks d ON d.domain = a.domain WHERE a.id = ?", accountId) > 0
    }
}

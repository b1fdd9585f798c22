import GRDB

extension DomainBlockList {
    /// Whether the node blocks the domain of the account `accountId` (cached statement).
    public func blocksDomain(ofAccount accountId: Int64) throws -> Bool {
        try APIQuerySupport.cachedCount(db, "SELECT COUNT(*) FROM accounts a JOIN domain_blocks d ON d.domain = a.domain WHERE a.id = ?", accountId) > 0
    }
}

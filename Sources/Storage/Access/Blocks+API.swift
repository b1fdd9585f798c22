import GRDB

extension Blocks {
    /// One page of the accounts `accountId` blocks, newest block first, each with the
    /// block's id.
    public func blockedAccounts(by accountId: Int64, page: PageBounds) throws -> [PageItem<Account>] {
        try APIQuerySupport.relatedAccounts("""
            FROM blocks r JOIN accounts a ON a.id = r.target_account_id WHERE r.account_id = ?
            """, arguments: [accountId], page: page, db: db)
    }
}

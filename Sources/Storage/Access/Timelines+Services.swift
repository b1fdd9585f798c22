import GRDB

extension Timelines {
    /// The local accounts whose home timeline holds `postId`.
    public func homeReaders(of postId: Int64) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT account_id FROM home_timeline WHERE post_id = ?", arguments: [postId])
    }
}

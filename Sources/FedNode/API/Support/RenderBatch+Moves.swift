import Storage

extension RenderBatch {
    /// The accounts that those of `ids` which moved went to, by the mover's id: two queries.
    static func moveTargets(of ids: some Collection<Int64>, db: Transaction) throws -> [Int64: Account] {
        let targets = try db.accountMoves.targets(of: ids)
        guard !targets.isEmpty else { return [:] }
        let accounts = Dictionary(try db.accounts.find(ids: Set(targets.values)).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return targets.compactMapValues { accounts[$0] }
    }
}

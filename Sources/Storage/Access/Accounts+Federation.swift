import GRDB

extension Accounts {
    /// The account whose public key has the id `keyId` (an HTTP signature's `keyId`).
    public func find(publicKeyId keyId: String) throws -> Account? {
        try Account.filter(Column("public_key_id") == keyId).fetchOne(db)
    }

    /// The accounts whose actor ids are among `uris`, in no particular order.
    public func find(uris: [String]) throws -> [Account] {
        try Account.filter(uris.contains(Column("uri"))).fetchAll(db)
    }

    /// Stores an account: updates its row when it exists, inserts it otherwise.
    public func save(_ account: Account) throws { try account.save(db) }

    /// Removes an account; foreign keys cascade to everything it owns.
    /// - Returns: Whether a row was deleted.
    @discardableResult
    public func delete(_ account: Account) throws -> Bool { try account.delete(db) }
}

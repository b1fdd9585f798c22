import GRDB

extension Accounts {
    /// The account with this id.
    public func find(id: Int64) throws -> Account? { try Account.fetchOne(db, key: id) }

    /// The account whose actor id is `uri`.
    public func find(uri: String) throws -> Account? { try Account.withURI(uri).fetchOne(db) }

    /// The local account named `username` (ignoring case).
    public func findLocal(username: String) throws -> Account? { try Account.local(username).fetchOne(db) }

    /// The account `username@domain`, local when `domain` is `nil`.
    public func find(username: String, domain: String?) throws -> Account? {
        try Account.handle(username, domain: domain).fetchOne(db)
    }

    /// The accounts with these ids, in no particular order.
    public func find(ids: some Collection<Int64>) throws -> [Account] { try Account.fetchAll(db, keys: ids) }

    /// Stores a new account.
    public func insert(_ account: Account) throws { try account.insert(db) }

    /// Stores every column of an existing account.
    public func update(_ account: Account) throws { try account.update(db) }

    /// The credential of a local account.
    public func credential(of accountId: Int64) throws -> Credential? { try Credential.fetchOne(db, key: accountId) }

    /// The credential registered with `email` (ignoring case).
    public func credential(email: String) throws -> Credential? { try Credential.email(email).fetchOne(db) }
}

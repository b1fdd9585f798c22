import Activity
import Storage

extension AccountToAS {
    /// The actor document of a local account with what account migration adds: `alsoKnownAs`
    /// (its aliases) and, once it moved, `movedTo` (the new account's actor id).
    package static func person(_ account: Account, urls: NodeURLs, in db: Transaction) throws -> ASObject {
        var person = AccountToAS.person(account, urls: urls)
        person.alsoKnownAs = try db.accountMoves.aliases(of: account.id)
        if let targetId = try db.accountMoves.target(of: account.id) {
            person.movedTo = try db.accounts.find(id: targetId)?.uri
        }
        return person
    }
}

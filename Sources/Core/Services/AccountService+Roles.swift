import Foundation
import Storage

extension AccountService {
    /// Gives the local account `username` the staff role `name` (`owner`, `admin`,
    /// `moderator`, or `user` for none). There is one owner at most: naming a new one makes
    /// the old one an admin.
    /// - Throws: `NodeError.notFound` for an unknown account, `.validation` for an unknown role.
    public func setRole(_ name: String, of username: String) throws(NodeError) {
        guard let role = StaffRole(rawValue: name.lowercased()) else {
            throw .validation("Unknown role \(name): owner, admin, moderator or user")
        }
        let found: Bool
        do {
            found = try database.writeBlocking { db in
                guard let account = try db.accounts.findLocal(username: username) else { return false }
                if role == .owner, let owner = try db.moderation.ownerId(), owner != account.id {
                    try db.moderation.setRole(.admin, of: owner)
                }
                try db.moderation.setRole(role, of: account.id)
                return true
            }
        } catch { throw .internal("setting a role: \(error)") }
        guard found else { throw .notFound("No local account named \(username)") }
    }

    /// The staff role of each local account that has one, by username.
    public func staff() throws(NodeError) -> [(username: String, role: String)] {
        do {
            return try database.readBlocking { db in
                let accounts = try db.accounts.allLocal()
                let roles = try db.moderation.roles(of: accounts.map(\.id))
                return accounts.compactMap { account in roles[account.id].map { (account.username, $0.rawValue) } }
            }
        } catch { throw .internal("listing staff: \(error)") }
    }

    /// Makes `accountId` the owner when the node has none yet (the first admin created).
    /// - Returns: The role given.
    public func promoteFirstAdmin(_ accountId: Int64) throws(NodeError) -> String {
        do {
            return try database.writeBlocking { db in
                let role: StaffRole = try db.moderation.hasOwner() ? .admin : .owner
                try db.moderation.setRole(role, of: accountId)
                return role.rawValue
            }
        } catch { throw .internal("setting a role: \(error)") }
    }
}

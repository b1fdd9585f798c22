import Foundation
import Storage

extension AccountService {
    /// Changes the password of a signed-in person who knows the current one; every session and
    /// app token of the account is revoked, as after a reset.
    /// - Throws: `NodeError.forbidden` for a wrong current password, `.validation` for a weak
    ///   new one.
    /// - Parameter cost: The node's scrypt cost (`--password-cost`).
    package func changePassword(of account: Account, current: String, to password: String, cost: Int) async throws(NodeError) {
        let email = try await read { db in try db.accounts.credential(of: account.id)?.email }
        guard let email, try await authenticateOffloaded(email: email, password: current)?.id == account.id else {
            throw .forbidden("The current password is not right.")
        }
        try AccountValidation.checkPassword(password)
        let hash = try await AccountMailService.hashOffloaded(password, cost: cost)
        do {
            try await database.write { db in
                try db.accountTokens.setPasswordHash(hash, of: account.id)
                try db.accountTokens.revokeAllSessions(of: account.id, at: Date())
            }
        } catch { throw .internal("password change: \(error)") }
    }

    private func read<T: Sendable>(_ body: @Sendable @escaping (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await database.read(body) } catch { throw .internal("password change read: \(error)") }
    }
}

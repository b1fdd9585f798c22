import Dispatch
import Foundation
import Signatures
import Storage

/// A person deleting their own account: the password confirms it, then the account goes as
/// `fednode user delete` removes it (`AccountService.delete(username:)`: content removed,
/// `Delete` of the actor queued to every server that knows it, tokens gone with the account,
/// the name kept by a tombstone), and its photo files leave the media directory at once.
package struct SelfDeletion: Sendable {
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Deletes `account` after checking `password`.
    /// - Throws: `NodeError.badRequest` without a password, `.forbidden` for a wrong one.
    package func delete(_ account: Account, password: String) async throws(NodeError) {
        guard !password.isEmpty else { throw .badRequest("no password provided in account delete request") }
        guard try await Self.verify(password, of: account, in: node) else { throw .forbidden("Invalid password") }
        let paths = try await read { db in try db.accountArchive.ownedMediaPaths(of: account.id) }
        try node.accounts.delete(username: account.username)
        node.deliverySignal.notify()
        removeFiles(paths)
    }

    /// Whether `password` is `account`'s, checked off the cooperative pool (scrypt takes about
    /// 130 ms of CPU).
    package static func verify(_ password: String, of account: Account, in node: Node) async throws(NodeError) -> Bool {
        let credential: Credential?
        do { credential = try await node.database.read { db in try db.accounts.credential(of: account.id) } } catch {
            throw .internal("reading credential: \(error)")
        }
        guard let hash = credential?.passwordHash else { return false }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: PasswordHasher.verify(password, against: hash))
            }
        }
    }

    // The rows are gone; a file that cannot be removed now is swept by the media janitor later.
    private func removeFiles(_ paths: [String]) {
        let store = node.mediaStorage
        for path in paths {
            do { try store.delete(path) } catch {
                node.logger.warning("media file of a deleted account not removed", metadata: ["path": "\(path)", "error": "\(error)"])
            }
        }
    }

    private func read<T: Sendable>(_ body: @Sendable @escaping (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await node.database.read(body) } catch { throw .internal("self-deletion read: \(error)") }
    }
}

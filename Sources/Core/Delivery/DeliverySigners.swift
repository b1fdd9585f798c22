import Logging
import Signatures
import Storage

/// The parsed signing keys of the local accounts that send deliveries (and of deleted ones
/// whose last deliveries are still queued), keyed by account id.
/// Parsing a PEM key costs far more than a lookup, and a busy node sends many deliveries per
/// account, so each key is parsed once per process.
package actor DeliverySigners {
    private var cache: [Int64: RequestSigner] = [:]
    private let database: NodeDatabase
    private let logger: Logger

    /// Creates a cache over the node's database; `instanceActor` signs the deliveries queued
    /// under `InstanceActor.deliveryAccountId` (forwarded reports).
    package init(database: NodeDatabase, logger: Logger, instanceActor: RequestSigner? = nil) {
        self.database = database
        self.logger = logger
        if let instanceActor { cache[InstanceActor.deliveryAccountId] = instanceActor }
    }

    /// The signers of the given accounts, loading and parsing the ones not cached yet.
    /// - Parameter accountIds: The senders of a batch of deliveries.
    /// - Returns: A signer per account that has a usable key; accounts without one (remote,
    ///   deleted with nothing left to send, or with a key that does not parse) are missing.
    /// - Throws: A database error when the accounts cannot be read (the batch should wait).
    package func signers(for accountIds: Set<Int64>) async throws -> [Int64: RequestSigner] {
        let missing = accountIds.filter { cache[$0] == nil }
        if !missing.isEmpty {
            let (accounts, departed) = try await database.read { db in
                (try db.accounts.find(ids: missing), try db.accounts.departedSigners(ids: missing))
            }
            for account in accounts { cache[account.id] = makeSigner(id: account.id, keyId: account.publicKeyId, pem: account.privateKeyPem) }
            // A deleted account's last deliveries (its `Delete`) are signed with the key kept on its tombstone.
            for tombstone in departed {
                guard let signerId = tombstone.signerId else { continue }
                cache[signerId] = makeSigner(id: signerId, keyId: tombstone.keyId, pem: tombstone.privateKeyPem)
            }
        }
        return cache.filter { accountIds.contains($0.key) }
    }

    private func makeSigner(id: Int64, keyId: String?, pem: String?) -> RequestSigner? {
        guard let keyId, let pem else { return nil }
        do {
            return RequestSigner(keyId: keyId, privateKey: try RSAPrivateKey(pem: pem))
        } catch {
            logger.error("unusable private key", metadata: ["account": "\(id)", "error": "\(error)"])
            return nil
        }
    }
}

import Logging
import Signatures
import Storage

/// The parsed signing keys of the local accounts that send deliveries, keyed by account id.
/// Parsing a PEM key costs far more than a lookup, and a busy node sends many deliveries per
/// account, so each key is parsed once per process.
actor DeliverySigners {
    private var cache: [Int64: RequestSigner] = [:]
    private let database: NodeDatabase
    private let logger: Logger

    /// Creates an empty cache over the node's database.
    init(database: NodeDatabase, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    /// The signers of the given accounts, loading and parsing the ones not cached yet.
    /// - Parameter accountIds: The senders of a batch of deliveries.
    /// - Returns: A signer per account that has a usable key; accounts without one (remote,
    ///   deleted, or with a key that does not parse) are missing from the result.
    /// - Throws: A database error when the accounts cannot be read (the batch should wait).
    func signers(for accountIds: Set<Int64>) async throws -> [Int64: RequestSigner] {
        let missing = accountIds.filter { cache[$0] == nil }
        if !missing.isEmpty {
            let accounts = try await database.read { db in
                try db.accounts.find(ids: missing)
            }
            for account in accounts { cache[account.id] = makeSigner(account) }
        }
        return cache.filter { accountIds.contains($0.key) }
    }

    private func makeSigner(_ account: Account) -> RequestSigner? {
        guard let keyId = account.publicKeyId, let pem = account.privateKeyPem else { return nil }
        do {
            return RequestSigner(keyId: keyId, privateKey: try RSAPrivateKey(pem: pem))
        } catch {
            logger.error("unusable private key", metadata: ["account": "\(account.id)", "error": "\(error)"])
            return nil
        }
    }
}

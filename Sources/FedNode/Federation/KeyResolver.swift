import Activity
import Foundation
import GRDB
import Signatures
import Storage

/// Finds the public key behind an HTTP signature's `keyId`, caching parsed keys in memory
/// (the database keeps them across restarts). A failed check may ask for a refetch once, so
/// rotated keys are picked up (DESIGN.md, inbound step 2).
actor KeyResolver {
    /// A key with the actor that owns it.
    struct OwnedKey: Sendable {
        let owner: Account
        let key: RSAPublicKey
    }

    private let database: NodeDatabase
    private var cache: [String: OwnedKey] = [:]
    private static let maxCached = 10_000

    init(database: NodeDatabase) {
        self.database = database
    }

    /// The key `keyId` names and its owner.
    /// - Parameter refresh: Fetch from the origin even when cached.
    /// - Throws: `NodeError.unauthorized` when no usable key can be found.
    func key(for given: String, refresh: Bool = false, node: Node) async throws(NodeError) -> OwnedKey {
        // Another spelling of one of our own key ids names our own key: never fetched, never stored over.
        let keyId = node.urls.canonicalLocal(given) ?? given
        if !refresh, let cached = cache[keyId] { return cached }
        if !refresh, let stored = try storedKey(keyId) { return remember(keyId, stored) }
        let actorURL = String(keyId.split(separator: "#", maxSplits: 1).first ?? "")
        let resolver = RemoteActorResolver(node: node)
        var owner: Account
        do { owner = try await resolver.resolve(uri: actorURL, refresh: true) } catch {
            // Some servers (GoToSocial) publish the key as its own document with an `owner`.
            owner = try await ownerOfKeyDocument(keyId, resolver: resolver, node: node)
        }
        guard owner.publicKeyId == keyId, let pem = owner.publicKeyPem, let key = try? RSAPublicKey(pem: pem) else {
            throw .unauthorized("Unknown signing key")
        }
        return remember(keyId, OwnedKey(owner: owner, key: key))
    }

    /// Forgets a cached key, e.g. after its owner was deleted.
    func forget(keyId: String) {
        cache[keyId] = nil
    }

    private func ownerOfKeyDocument(_ keyId: String, resolver: RemoteActorResolver, node: Node) async throws(NodeError) -> Account {
        let document: ASObject
        do { document = try await ObjectFetcher(node: node).fetch(keyId) } catch { throw .unauthorized("Cannot fetch signing key") }
        guard let owner = document.extra["owner"]?.stringValue, ASToAccount.authority(of: owner) == ASToAccount.authority(of: keyId) else {
            throw .unauthorized("Signing key has no owner")
        }
        do { return try await resolver.resolve(uri: owner, refresh: true) } catch { throw .unauthorized("Cannot fetch key owner") }
    }

    private func storedKey(_ keyId: String) throws(NodeError) -> OwnedKey? {
        let account: Account?
        do { account = try database.pool.read { try Account.filter(Column("public_key_id") == keyId).fetchOne($0) } } catch {
            throw .internal("reading keys: \(error)")
        }
        guard let account, let pem = account.publicKeyPem, let key = try? RSAPublicKey(pem: pem) else { return nil }
        return OwnedKey(owner: account, key: key)
    }

    private func remember(_ keyId: String, _ owned: OwnedKey) -> OwnedKey {
        if cache.count >= Self.maxCached { cache.removeAll(keepingCapacity: true) }
        cache[keyId] = owned
        return owned
    }
}

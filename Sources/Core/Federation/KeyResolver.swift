import Activity
import Foundation
import Signatures
import Storage

/// Finds the public key behind an HTTP signature's `keyId`, caching verified keys in memory
/// (the database keeps them across restarts). A failed check may ask for a refetch once, so
/// rotated keys are picked up (the inbound flow in docs/federation.md, "Signing and authorized fetch").
///
/// A cached key never outlives what the database says of its owner: storing an actor (an
/// `Update`, a refetch) or deleting it forgets its keys at once, so a key its owner replaced
/// or that died with its owner stops verifying; a check that read the key before the forget
/// does not put it back. An entry also expires `maxAge` after the key was read from the
/// database or its origin (using it does not extend that), which bounds how long another
/// process's change (PostgreSQL, several processes) goes unseen.
///
/// Before a signature verifies, a key costs one bounded GET: only the document the `keyId`
/// names is fetched (1 MiB, a few seconds, a few at once per origin, see `KeyFetchBudget`) and
/// nothing is stored. The owner is stored by `confirm(_:node:)`, once a signature verified with the key.
package actor KeyResolver {
    /// A key with the actor that owns it.
    package struct OwnedKey: Sendable {
        package let owner: Account
        package let key: RSAPublicKey
    }

    /// A key for a `keyId`, not trusted yet: known already (`stored`), or just fetched.
    package struct CandidateKey: Sendable {
        /// The key id, in canonical spelling.
        package let keyId: String
        /// The actor id the key document names as owner.
        package let ownerURI: String
        /// The key.
        package let key: RSAPublicKey
        /// The stored owner, for keys we already knew.
        package let stored: Account?
        /// The owner's full actor document, when the `keyId` named it (`…#main-key`).
        package let actorDocument: ASObject?
        /// For keys we already knew: until when they may be cached, and the resolver's
        /// `forgets` when they were read (a forget since then keeps them out of the cache).
        package var cacheUntil: ContinuousClock.Instant? = nil
        package var readAt = 0
    }

    private let database: NodeDatabase
    private var cache: [String: (key: OwnedKey, expires: ContinuousClock.Instant)] = [:]
    private static let maxCached = 10_000
    private static let maxAge = Duration.seconds(300)
    /// How many times keys were forgotten (see `CandidateKey.readAt`).
    private var forgets = 0
    private let fetchBudget = KeyFetchBudget(
        perOrigin: RemoteLimits.keyFetchesPerOrigin, queuedPerOrigin: 32, maxWait: RemoteLimits.keyFetchTimeout, slots: RemoteLimits.concurrentKeyFetches, holdFor: RemoteLimits.keyFetchSlotHold)

    package init(database: NodeDatabase) {
        self.database = database
    }

    /// The key `keyId` names, from the cache, the database or its origin. Nothing is stored.
    /// - Parameter refresh: Fetch from the origin even when known.
    /// - Throws: `NodeError.unauthorized` when no usable key can be found, `.forbidden` when
    ///   the key's document leads to a blocked domain or the key lives off its actor's host.
    package func candidate(for given: String, refresh: Bool = false, node: Node) async throws(NodeError) -> CandidateKey {
        // Another spelling of one of our own key ids names our own key: never fetched, never stored over.
        let keyId = node.urls.canonicalLocal(given) ?? given
        if !refresh {
            let readAt = forgets
            var known = cache[keyId].flatMap { $0.expires > .now ? $0 : nil }
            if known == nil { known = try await storedKey(keyId).map { ($0, .now + Self.maxAge) } }
            if let (owned, expires) = known {
                return CandidateKey(keyId: keyId, ownerURI: owned.owner.uri, key: owned.key, stored: owned.owner, actorDocument: nil,
                                    cacheUntil: expires, readAt: readAt)
            }
        }
        guard !node.urls.isLocal(keyId) else { throw .unauthorized("Unknown signing key") }
        guard let origin = ASToAccount.authority(of: keyId) else { throw .unauthorized("Malformed keyId") }
        return try await fetchBudget.run(for: origin) { () async throws(NodeError) -> CandidateKey in
            try await Self.fetchCandidate(keyId, node: node)
        }
    }

    /// The owner of a key a signature verified with, stored (or refreshed) now.
    /// - Throws: `NodeError.unauthorized` when the owner cannot be fetched or does not own the key.
    package func confirm(_ candidate: CandidateKey, node: Node) async throws(NodeError) -> Account {
        if let stored = candidate.stored {
            // Read before an actor was stored or deleted since: verified, but not cached again.
            if candidate.readAt == forgets, let until = candidate.cacheUntil {
                remember(candidate.keyId, OwnedKey(owner: stored, key: candidate.key), until: until)
            }
            return stored
        }
        var document = candidate.actorDocument
        if document == nil {
            // A key document (GoToSocial): the owner's actor is fetched only now.
            do { document = try await ObjectFetcher(node: node).fetch(candidate.ownerURI) } catch {
                switch error {
                case .internal(let detail), .unavailable(let detail): throw .unavailable("Cannot fetch the signing key's owner now: \(detail)")
                default: break
                }
                throw .unauthorized("Cannot fetch the signing key's owner: \(error.message)")
            }
        }
        guard let document, RemoteActorResolver.isActor(document), document.id == candidate.ownerURI,
            document.publicKey?.id == candidate.keyId,
            let pem = document.publicKey?.publicKeyPem, (try? RSAPublicKey(pem: pem))?.spkiPEM == candidate.key.spkiPEM
        else { throw .unauthorized("The signing key's owner does not publish it") }
        let resolver = RemoteActorResolver(node: node)
        let owner = try await resolver.store(document)
        Task { await resolver.refreshCounts(of: document) }
        remember(candidate.keyId, OwnedKey(owner: owner, key: candidate.key), until: .now + Self.maxAge)
        return owner
    }

    /// Forgets the cached keys `keyIds` (an actor's old and new key ids, once its row changed
    /// or went); `nil`s are skipped.
    package func forget(keyIds: String?...) {
        forgets += 1
        for case let keyId? in keyIds { cache[keyId] = nil }
    }

    /// Fetches the document `keyId` names: the owner's actor (`…#main-key`) or a key document
    /// with an `owner` (GoToSocial), and reads the key from it.
    private static func fetchCandidate(_ keyId: String, node: Node) async throws(NodeError) -> CandidateKey {
        let url = String(keyId.split(separator: "#", maxSplits: 1).first ?? "")
        let fetcher = ObjectFetcher(node: node, maxBytes: RemoteLimits.maxDocumentBytes, timeout: RemoteLimits.keyFetchTimeout)
        let document: ASObject
        do { document = try await fetcher.fetch(url) } catch {
            switch error {
            case .forbidden: throw error
            // A timeout, a refused connection or a 5xx: the sender's retry may find the key.
            case .internal(let detail), .unavailable(let detail): throw .unavailable("Cannot fetch signing key now: \(detail)")
            default: throw .unauthorized("Cannot fetch signing key: \(error.message)")
            }
        }
        let owner: String?
        let pem: String?
        if RemoteActorResolver.isActor(document) {
            (owner, pem) = (document.id, document.publicKey?.id == keyId ? document.publicKey?.publicKeyPem : nil)
        } else {
            (owner, pem) = (document.extra["owner"]?.stringValue, document.extra["publicKeyPem"]?.stringValue)
        }
        guard let owner, let pem, let key = try? RSAPublicKey(pem: pem) else { throw .unauthorized("Unknown signing key") }
        // A key speaks only for actors on its own host (as Mastodon requires).
        guard ASToAccount.authority(of: owner) == ASToAccount.authority(of: keyId) else {
            throw .forbidden("Signing key is not on its actor's host")
        }
        // A stub actor served at the key's URL (not the actor's own) is not the full profile.
        let full = RemoteActorResolver.isActor(document) && document.id == url ? document : nil
        return CandidateKey(keyId: keyId, ownerURI: owner, key: key, stored: nil, actorDocument: full)
    }

    private func storedKey(_ keyId: String) async throws(NodeError) -> OwnedKey? {
        let account: Account?
        do { account = try await database.read { try $0.accounts.find(publicKeyId: keyId) } } catch {
            throw .internal("reading keys: \(error)")
        }
        guard let account, let pem = account.publicKeyPem, let key = try? RSAPublicKey(pem: pem) else { return nil }
        return OwnedKey(owner: account, key: key)
    }

    private func remember(_ keyId: String, _ owned: OwnedKey, until expires: ContinuousClock.Instant) {
        if cache.count >= Self.maxCached { cache.removeAll(keepingCapacity: true) }
        cache[keyId] = (owned, expires)
    }
}

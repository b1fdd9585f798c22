import Activity
import Foundation
import GRDB
import Hummingbird
import Signatures
import Storage

/// Verifies an inbound request's HTTP signature (draft-cavage-12 or RFC 9421) and that the
/// activity's actor is the key's owner; refuses blocked domains.
struct InboxAuthenticator: Sendable {
    let node: Node
    let verifier = SignatureVerifier()

    /// The verified signer, or `nil` for an unverifiable `Delete` of an actor by itself (its
    /// key is gone with it; there is nothing of it to delete if we never stored its key).
    /// - Throws: `NodeError.unauthorized` (no, bad or stale signature, digest mismatch) or
    ///   `.forbidden` (actor is not the key's owner, blocked domain).
    func authenticate(_ request: Request, body: [UInt8], activity: ASObject, actorId: String) async throws(NodeError) -> Account? {
        let pending: PendingVerification
        do { pending = try verifier.prepare(signable(request, body: body)) } catch {
            throw .unauthorized("Signature check failed: \(error)")
        }
        try checkDomainAllowed(pending.keyId)
        let owned: KeyResolver.OwnedKey
        do { owned = try await node.keys.key(for: pending.keyId, node: node) } catch {
            if activity.hasType("Delete"), activity.object?.id == actorId { return nil }
            throw error
        }
        var signer = owned.owner
        if !pending.verify(with: owned.key) {
            // The key may have rotated: fetch it again once before refusing.
            let refreshed = try await node.keys.key(for: pending.keyId, refresh: true, node: node)
            guard pending.verify(with: refreshed.key) else { throw .unauthorized("Signature does not verify") }
            signer = refreshed.owner
        }
        guard signer.uri == actorId else { throw .forbidden("Activity actor is not the signing key's owner") }
        return signer
    }

    /// The verified signer of a signed GET (authorized fetch), or `nil` when the request is
    /// unsigned or its signature does not verify: the caller then treats it as anonymous.
    func fetcher(of request: Request) async -> Account? {
        guard request.headers[.init("signature")!] != nil || request.headers[.init("signature-input")!] != nil,
            let pending = try? verifier.prepare(signable(request, body: [])),
            (try? checkDomainAllowed(pending.keyId)) != nil,
            let owned = try? await node.keys.key(for: pending.keyId, node: node)
        else { return nil }
        if pending.verify(with: owned.key) { return owned.owner }
        guard let refreshed = try? await node.keys.key(for: pending.keyId, refresh: true, node: node),
            pending.verify(with: refreshed.key)
        else { return nil }
        return refreshed.owner
    }

    private func signable(_ request: Request, body: [UInt8]) -> SignableRequest {
        var headers: [(name: String, value: String)] = request.headers.map { ($0.name.canonicalName, $0.value) }
        let authority = request.head.authority ?? request.headers[.init("host")!] ?? ""
        if !headers.contains(where: { $0.name == "host" }) { headers.append(("host", authority)) }
        let scheme = node.configuration.publicURL.hasPrefix("https") ? "https" : "http"
        return SignableRequest(method: request.method.rawValue, path: request.uri.string, authority: authority,
                               scheme: scheme, headers: headers, body: body)
    }

    private func checkDomainAllowed(_ keyId: String) throws(NodeError) {
        guard let domain = ASToAccount.authority(of: keyId) else { throw .unauthorized("Malformed keyId") }
        let host = domain.split(separator: ":").first.map(String.init) ?? domain
        let blocked: Bool
        do {
            blocked = try node.database.pool.read { db in
                try DomainBlock.filter(keys: [domain, host]).fetchCount(db) > 0
            }
        } catch { throw .internal("reading domain blocks: \(error)") }
        if blocked { throw .forbidden("Domain is blocked") }
    }
}

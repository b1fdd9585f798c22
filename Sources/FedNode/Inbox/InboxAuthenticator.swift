import Activity
import Core
import Foundation
import Hummingbird
import Signatures
import Storage

/// Verifies an inbound request's HTTP signature (draft-cavage-12 or RFC 9421) and that the
/// activity's actor is the key's owner; refuses blocked domains, keys that live off their
/// actor's host and requests signed for another host.
struct InboxAuthenticator: Sendable {
    let node: Node
    let verifier = SignatureVerifier()

    /// The verified signer, or `nil` for an unverifiable `Delete` of an actor by itself (its
    /// key is gone with it; there is nothing of it to delete if we never stored its key).
    /// Nothing is stored before the signature verified (see `KeyResolver`).
    /// - Throws: `NodeError.unauthorized` (no, bad or stale signature, digest mismatch) or
    ///   `.forbidden` (actor is not the key's owner, key or actor on a blocked domain, key not
    ///   on the actor's host, signed for another host).
    func authenticate(_ request: Request, body: [UInt8], activity: ASObject, actorId: String) async throws(NodeError) -> Account? {
        let pending: PendingVerification
        do { pending = try verifier.prepare(signable(request, body: body)) } catch {
            throw .unauthorized("Signature check failed: \(error)")
        }
        try checkAuthority(request)
        // A key speaks only for actors on its own host (as Mastodon requires): checked before
        // anything is fetched.
        guard let keyHost = ASToAccount.authority(of: pending.keyId) else { throw .unauthorized("Malformed keyId") }
        guard keyHost == ASToAccount.authority(of: actorId) else { throw .forbidden("Signing key is not on the actor's host") }
        try await checkDomainAllowed(keyHost)
        var candidate: KeyResolver.CandidateKey
        do { candidate = try await node.keys.candidate(for: pending.keyId, node: node) } catch {
            if activity.hasType("Delete"), activity.object?.id == actorId, case .unauthorized = error { return nil }
            throw error
        }
        if !pending.verify(with: candidate.key) {
            // A key we knew may have rotated: fetch it again once before refusing. One just
            // fetched is current already: a bad signature costs one GET, never more.
            guard candidate.stored != nil else { throw .unauthorized("Signature does not verify") }
            candidate = try await node.keys.candidate(for: pending.keyId, refresh: true, node: node)
            guard pending.verify(with: candidate.key) else { throw .unauthorized("Signature does not verify") }
        }
        guard candidate.ownerURI == actorId else { throw .forbidden("Activity actor is not the signing key's owner") }
        return try await node.keys.confirm(candidate, node: node)
    }

    /// The verified signer of a signed GET (authorized fetch), or `nil` when the request is
    /// unsigned or its signature does not verify: the caller then treats it as anonymous.
    func fetcher(of request: Request) async -> Account? {
        guard request.headers[.init("signature")!] != nil || request.headers[.init("signature-input")!] != nil,
            let pending = try? verifier.prepare(signable(request, body: [])),
            let keyHost = ASToAccount.authority(of: pending.keyId),
            await (try? checkDomainAllowed(keyHost)) != nil,
            var candidate = try? await node.keys.candidate(for: pending.keyId, node: node)
        else { return nil }
        if !pending.verify(with: candidate.key) {
            guard candidate.stored != nil,
                let refreshed = try? await node.keys.candidate(for: pending.keyId, refresh: true, node: node),
                pending.verify(with: refreshed.key)
            else { return nil }
            candidate = refreshed
        }
        return try? await node.keys.confirm(candidate, node: node)
    }

    private func signable(_ request: Request, body: [UInt8]) -> SignableRequest {
        var headers: [(name: String, value: String)] = request.headers.map { ($0.name.canonicalName, $0.value) }
        let authority = requestAuthority(request)
        if !headers.contains(where: { $0.name == "host" }) { headers.append(("host", authority)) }
        let scheme = node.configuration.publicURL.hasPrefix("https") ? "https" : "http"
        return SignableRequest(method: request.method.rawValue, path: request.uri.string, authority: authority,
                               scheme: scheme, headers: headers, body: body)
    }

    private func requestAuthority(_ request: Request) -> String {
        request.head.authority ?? request.headers[.init("host")!] ?? ""
    }

    /// The host the request was signed for must be this node (its domain, in any letter case;
    /// behind a proxy that is the public domain): a signature made for another server must not
    /// be replayable here.
    private func checkAuthority(_ request: Request) throws(NodeError) {
        let authority = requestAuthority(request)
        guard !authority.isEmpty, node.urls.isOwn(authority: authority) else {
            throw .unauthorized("Request signed for another host (\(authority.prefix(100)))")
        }
    }

    private func checkDomainAllowed(_ authority: String) async throws(NodeError) {
        try await node.refuseBlocked([authority]) { _ in "Domain is blocked" }
    }
}

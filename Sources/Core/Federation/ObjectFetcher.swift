import Activity
import Foundation
import Signatures
import Storage

/// Fetches ActivityPub objects from their origin with a signed GET (so servers with
/// authorized fetch answer), and checks the answer really comes from that origin.
package struct ObjectFetcher: Sendable {
    package let node: Node
    /// Largest document accepted.
    package var maxBytes = RemoteLimits.maxDocumentBytes
    /// How long the fetch may take.
    package var timeout = RemoteLimits.objectFetchTimeout

    /// The object at `url`.
    /// - Parameters:
    ///   - url: The object's id.
    ///   - account: A local account to sign as (a follower reading a followers-only post);
    ///     by default the node's instance actor signs.
    /// - Throws: `NodeError.internal` for failures worth retrying later (timeouts, refused or
    ///   broken connections, 5xx and 429 answers); `.notFound` when the origin has no such
    ///   object, `.gone` when it was deleted, `.forbidden` for a blocked domain, `.badRequest`
    ///   for other refusals, unusable answers or an id from another host.
    package func fetch(_ url: String, as account: Account? = nil) async throws(NodeError) -> ASObject {
        guard url.utf8.count <= RemoteLimits.maxIdLength, let host = ASToAccount.authority(of: url) else {
            throw .badRequest("Cannot fetch \(url.prefix(100)): not a URL")
        }
        try await checkNotBlocked(host)
        var request = try SignedRequest.make(method: "GET", url: url, signer: signer(for: account))
        request.maxResponseBytes = maxBytes
        request.timeout = timeout
        let response: HTTPClientResponse
        do { response = try await node.httpClient.execute(request) } catch { throw Self.failure(error, url: url) }
        switch response.status {
        case 200..<300: break
        case 404: throw .notFound("\(url) not found at its origin")
        case 410: throw .gone("\(url) is gone")
        case 408, 429, 500...599: throw .internal("Fetching \(url) answered \(response.status), will retry")
        default: throw .badRequest("Fetching \(url) answered \(response.status)")
        }
        let object: ASObject
        do { object = try ASObject.decode(from: Data(response.body)) } catch {
            throw .badRequest("\(url) did not answer an ActivityPub object")
        }
        // The document must be the origin's own: its id's host is the host that served it
        // (after redirects), or a spoofing server could plant objects for other hosts.
        let servedBy = ASToAccount.authority(of: response.url.isEmpty ? url : response.url)
        guard let id = object.id, id.utf8.count <= RemoteLimits.maxIdLength, let idHost = ASToAccount.authority(of: id),
            idHost == servedBy
        else { throw .badRequest("\(url) answered an object with a foreign id") }
        if let servedBy, servedBy != host { try await checkNotBlocked(servedBy) }
        return object
    }

    /// Transient transport failures (the origin may answer later) become `.internal`, which
    /// the inbox worker retries with backoff; a machine with as many requests in flight as it
    /// may becomes `.unavailable` (nothing was sent: the worker tries again soon, uncounted); the
    /// rest are permanent.
    package static func failure(_ error: HTTPClientError, url: String) -> NodeError {
        switch error {
        case .addressBusy(let address):
            .unavailable("Cannot fetch \(url) now: \(address) has as many requests in flight as it may")
        case .timedOut, .connectFailed, .transport, .cancelled:
            .internal("Cannot fetch \(url) now: \(error)")
        case .invalidURL, .blockedAddress, .responseTooLarge, .tooManyRedirects:
            .badRequest("Cannot fetch \(url): \(error)")
        }
    }

    private func checkNotBlocked(_ authority: String) async throws(NodeError) {
        try await node.refuseBlocked([authority]) { "\($0) is blocked" }
    }

    private func signer(for account: Account?) -> RequestSigner {
        guard let account, account.isLocal, let keyId = account.publicKeyId, let pem = account.privateKeyPem,
            let key = try? RSAPrivateKey(pem: pem)
        else { return node.instanceActor.signer }
        return RequestSigner(keyId: keyId, privateKey: key)
    }
}

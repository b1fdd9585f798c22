import Activity
import Foundation
import Signatures
import Storage

/// Fetches ActivityPub objects from their origin with a signed GET (so servers with
/// authorized fetch answer), and checks the answer really comes from that origin.
struct ObjectFetcher: Sendable {
    let node: Node

    /// The object at `url`.
    /// - Parameters:
    ///   - url: The object's id.
    ///   - account: A local account to sign as (a follower reading a followers-only post);
    ///     by default the node's instance actor signs.
    /// - Throws: `NodeError.notFound` when the origin has no such object, `.gone` when it was
    ///   deleted, `.badRequest` for unusable answers or an id from another host.
    func fetch(_ url: String, as account: Account? = nil) async throws(NodeError) -> ASObject {
        let request = try SignedRequest.make(method: "GET", url: url, signer: signer(for: account))
        let response: HTTPClientResponse
        do { response = try await node.httpClient.execute(request) } catch {
            throw .badRequest("Cannot fetch \(url): \(error)")
        }
        switch response.status {
        case 200..<300: break
        case 404: throw .notFound("\(url) not found at its origin")
        case 410: throw .gone("\(url) is gone")
        default: throw .badRequest("Fetching \(url) answered \(response.status)")
        }
        let object: ASObject
        do { object = try ASObject.decode(from: Data(response.body)) } catch {
            throw .badRequest("\(url) did not answer an ActivityPub object")
        }
        // The document must be the origin's own: its id's host is the host that served it
        // (after redirects), or a spoofing server could plant objects for other hosts.
        guard let id = object.id, let idHost = ASToAccount.authority(of: id),
            idHost == ASToAccount.authority(of: response.url.isEmpty ? url : response.url)
        else { throw .badRequest("\(url) answered an object with a foreign id") }
        return object
    }

    private func signer(for account: Account?) -> RequestSigner {
        guard let account, account.isLocal, let keyId = account.publicKeyId, let pem = account.privateKeyPem,
            let key = try? RSAPrivateKey(pem: pem)
        else { return node.instanceActor.signer }
        return RequestSigner(keyId: keyId, privateKey: key)
    }
}

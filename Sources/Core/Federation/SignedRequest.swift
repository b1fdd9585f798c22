import Foundation
import Signatures

/// Builds outgoing requests signed the way Mastodon signs them (draft-cavage-12 with
/// `(request-target) host date` and, with a body, `digest` and `content-type`).
package enum SignedRequest {
    /// A signed request ready for the HTTP client.
    /// - Parameters:
    ///   - method: `GET` or `POST`.
    ///   - url: Absolute http(s) URL.
    ///   - body: JSON body for POSTs.
    ///   - signer: Key id and private key of the sending actor.
    /// - Throws: `NodeError.badRequest` for an unusable URL, `.internal` when signing fails.
    package static func make(method: String, url: String, body: [UInt8]? = nil, signer: RequestSigner, now: Date = Date()) throws(NodeError) -> HTTPClientRequest {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty
        else { throw .badRequest("Unusable URL: \(url)") }
        let authority = components.port.map { "\(host):\($0)" } ?? host
        let path = (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
            + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
        var headers: [(name: String, value: String)] = [("Accept", ActivityPubHeaders.accept)]
        if body != nil { headers.append(("Content-Type", ActivityPubHeaders.contentType)) }
        var signable = SignableRequest(method: method, path: path, authority: authority, scheme: scheme, headers: headers, body: body)
        do { try signer.sign(&signable, now: now) } catch { throw .internal("signing request: \(error)") }
        return HTTPClientRequest(method: method, url: url, headers: signable.headers, body: body)
    }
}

/// Header values for ActivityPub requests.
package enum ActivityPubHeaders {
    /// What we ask for when fetching objects.
    package static let accept = "application/activity+json, application/ld+json; profile=\"https://www.w3.org/ns/activitystreams\""
    /// What we send (ActivityPub 7: the ld+json profile form).
    package static let contentType = "application/activity+json"
}

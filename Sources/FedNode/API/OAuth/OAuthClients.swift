import Core
import Foundation
import Hummingbird
import Storage

/// Registered client apps: lookup by client id and client authentication (RFC 6749 2.3.1).
struct OAuthClients {
    let node: Node

    /// The app with `clientId`, or `nil`.
    func app(clientId: String) async throws(NodeError) -> OAuthApp? {
        do {
            return try await node.database.read { db in
                try db.oauth.app(clientId: clientId)
            }
        } catch { throw .internal("reading app: \(error)") }
    }

    /// The app authenticating `request`: `client_id` and `client_secret` in the body, or HTTP
    /// Basic with both form-encoded (RFC 6749 2.3.1).
    /// - Throws: `OAuthError.invalidClient` (401) for a missing, unknown or wrong client.
    func authenticate(_ request: Request, params: APIParams) async throws -> OAuthApp {
        let basic = Self.basicCredentials(of: request)
        guard let (clientId, secret) = basic ?? params.nonEmpty("client_id").map({ ($0, params.string("client_secret") ?? "") }),
            let app = try await app(clientId: clientId), Self.equalInConstantTime(app.clientSecret, secret)
        else { throw OAuthError.invalidClient(basic: basic != nil) }
        return app
    }

    /// The client id and secret of an `Authorization: Basic` header.
    static func basicCredentials(of request: Request) -> (String, String)? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let decoded = String(data: data, encoding: .utf8), let colon = decoded.firstIndex(of: ":")
        else { return nil }
        return (APIParams.formDecode(decoded[..<colon]), APIParams.formDecode(decoded[decoded.index(after: colon)...]))
    }

    /// Compares secrets without leaking through timing how many leading bytes matched.
    static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8), right = Array(b.utf8)
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
@testable import FedNode

extension TestNode {
    /// Creates a local account and a bearer token for it with `scopes` (no app), as an app
    /// that went through OAuth would hold.
    func user(_ username: String, scopes: String = "read write follow push") async throws -> (account: Account, token: String) {
        let account = try await node.accounts.create(username: username, email: "\(username)@example.test", password: "correct horse battery")
        let issued = try await node.database.writeSQL { db in
            try node.apiAuth.issueToken(appId: nil, accountId: account.id, scopes: Scopes(scopes), in: Transaction(db))
        }
        return (account, issued.token)
    }
}

/// Request helpers for client API tests.
extension TestClientProtocol {
    /// Sends `method path` with a bearer token and an optional body (JSON by default).
    func api(_ method: HTTPRequest.Method, _ path: String, token: String? = nil, json: [String: Any]? = nil,
             form: String? = nil, headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        var body: ByteBuffer?
        if let json {
            headers[.contentType] = "application/json"
            body = ByteBuffer(data: try JSONSerialization.data(withJSONObject: json))
        } else if let form {
            headers[.contentType] = "application/x-www-form-urlencoded"
            body = ByteBuffer(string: form)
        }
        return try await execute(uri: path, method: method, headers: headers, body: body)
    }
}

extension TestResponse {
    /// The body parsed as a JSON array of objects.
    var jsonArray: [[String: Any]]? {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [[String: Any]]
    }

    /// The body decoded as an API entity.
    func entity<T: Decodable>(_ type: T.Type) throws -> T {
        try APIResponse.decoder().decode(type, from: Data(buffer: body))
    }
}

/// A multipart/form-data body builder for upload tests.
struct MultipartBody {
    let boundary = "fednode-test-\(UUID().uuidString)"
    private(set) var data = Data()

    /// Adds a text field.
    mutating func field(_ name: String, _ value: String) {
        data.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
    }

    /// Adds a file field.
    mutating func file(_ name: String, filename: String, contentType: String, bytes: Data) {
        data.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: \(contentType)\r\n\r\n".utf8))
        data.append(bytes)
        data.append(Data("\r\n".utf8))
    }

    /// The finished body and its content type.
    func finished() -> (body: ByteBuffer, contentType: String) {
        var whole = data
        whole.append(Data("--\(boundary)--\r\n".utf8))
        return (ByteBuffer(data: whole), "multipart/form-data; boundary=\(boundary)")
    }
}

@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import FedNode

extension TestNode {
    /// A test node whose configuration `configure` adjusts first (small rate limits, closed
    /// registrations).
    static func make(domain: String = "social.test", configure: (inout NodeConfiguration) -> Void) throws -> TestNode {
        let dir = (NSTemporaryDirectory() as NSString).appendingPathComponent("fednode-test-\(UUID().uuidString)")
        var configuration = configuration(domain: domain, dataDirectory: dir)
        configure(&configuration)
        return TestNode(node: try Node(configuration: configuration, logger: logger), dataDirectory: dir)
    }
}

/// A registered app's credentials.
struct TestApp {
    var clientId: String
    var clientSecret: String
    var redirectURI: String
}

/// Helpers that play a Mastodon client through registration and OAuth.
extension TestClientProtocol {
    /// Registers an app with `POST /api/v1/apps`.
    func registerApp(name: String = "Test App", redirectURI: String = "https://app.example/callback",
                     scopes: String = "read write follow push") async throws -> TestApp {
        let response = try await api(.post, "/api/v1/apps", json: ["client_name": name, "redirect_uris": redirectURI, "scopes": scopes])
        #expect(response.status == .ok)
        let json = try #require(response.json)
        return TestApp(clientId: try #require(json["client_id"] as? String), clientSecret: try #require(json["client_secret"] as? String),
                       redirectURI: redirectURI)
    }

    /// `POST path` with a form-encoded body of `fields`.
    func postForm(_ path: String, _ fields: [(String, String)], headers: HTTPFields = [:]) async throws -> TestResponse {
        try await api(.post, path, form: formEncoded(fields), headers: headers)
    }

    /// A token from the password grant.
    func passwordToken(_ app: TestApp, email: String, password: String = "correct horse battery", scope: String = "read write") async throws -> [String: Any] {
        let response = try await postForm("/oauth/token", [
            ("grant_type", "password"), ("username", email), ("password", password), ("scope", scope),
            ("client_id", app.clientId), ("client_secret", app.clientSecret),
        ])
        #expect(response.status == .ok, "\(response.text)")
        return try #require(response.json)
    }
}

/// `application/x-www-form-urlencoded` encoding of `fields`.
func formEncoded(_ fields: [(String, String)]) -> String {
    let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    return fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: unreserved)!)" }.joined(separator: "&")
}

/// The query items of a URL, by name.
func queryItems(of url: String) -> [String: String] {
    var items: [String: String] = [:]
    for item in URLComponents(string: url)?.queryItems ?? [] { items[item.name] = item.value ?? "" }
    return items
}

@testable import Core
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import Activity
@testable import FedNode

/// Hostile request bodies sent over real HTTP: each is refused with a 4xx and a JSON error
/// before the request does anything, and the account is as it was. Only multipart bodies (where
/// a file is expected) may be larger than a mebibyte.
@Suite("Request body limits")
struct RequestBodyLimitsTests {
    /// `PATCH /api/v1/accounts/update_credentials` with `body` of `contentType`.
    private static func update(_ client: any TestClientProtocol, token: String, contentType: String, body: Data) async throws -> TestResponse {
        try await client.execute(uri: "/api/v1/accounts/update_credentials", method: .patch,
                                 headers: [.authorization: "Bearer \(token)", .contentType: contentType], body: ByteBuffer(data: body))
    }

    /// The caller's display name, as the API shows it.
    private static func displayName(_ client: any TestClientProtocol, token: String) async throws -> String {
        try #require(try await client.api(.get, "/api/v1/accounts/verify_credentials", token: token).json?["display_name"] as? String)
    }

    /// Expects a refusal with `status` whose JSON error contains `words`.
    private static func expectRefused(_ response: TestResponse, _ status: HTTPResponse.Status, _ words: String,
                                      sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status, "\(response.text.prefix(200))", sourceLocation: sourceLocation)
        let error = response.json?["error"] as? String
        #expect(error?.contains(words) == true, "error: \(error ?? "none")", sourceLocation: sourceLocation)
    }

    /// A JSON object that first renames the account, then has `rest` (JSON text) under `x`.
    private static func renaming(_ rest: String) -> Data { Data(#"{"display_name": "Pwned", "x": \#(rest)}"#.utf8) }

    @Test("JSON to update_credentials is held to 1 MiB; 350,000 small objects are refused at once")
    func largeJSON() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        let (_, token) = try await test.user("alice")
        try await test.withLiveClient { client in
            let before = try await Self.displayName(client, token: token)
            let objects = "[" + Array(repeating: #"{"a":1,"b":2}"#, count: 350_000).joined(separator: ",") + "]"
            let body = Self.renaming(objects)
            #expect(body.count > 4_500_000)
            Self.expectRefused(try await Self.update(client, token: token, contentType: "application/json", body: body), .contentTooLarge, "too large")
            #expect(try await Self.displayName(client, token: token) == before)
        }
    }

    @Test("multipart may be larger than JSON on update_credentials: the limit follows the content type")
    func multipartMayBeLarger() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        let (_, token) = try await test.user("alice")
        try await test.withLiveClient { client in
            let before = try await Self.displayName(client, token: token)
            let padding = String(repeating: "p", count: 1_500_000)
            let json = Data(#"{"display_name": "From JSON", "padding": "\#(padding)"}"#.utf8)
            Self.expectRefused(try await Self.update(client, token: token, contentType: "application/json", body: json), .contentTooLarge, "too large")
            let form = Data("display_name=From+form&padding=\(padding)".utf8)
            Self.expectRefused(try await Self.update(client, token: token, contentType: "application/x-www-form-urlencoded", body: form),
                               .contentTooLarge, "too large")
            #expect(try await Self.displayName(client, token: token) == before)
            var multipart = MultipartBody()
            multipart.field("display_name", "From multipart")
            multipart.field("padding", padding)
            let (body, contentType) = multipart.finished()
            let saved = try await Self.update(client, token: token, contentType: contentType, body: Data(buffer: body))
            #expect(saved.status == .ok, "\(saved.text.prefix(200))")
            #expect(try await Self.displayName(client, token: token) == "From multipart")
        }
    }

    @Test("JSON under 1 MiB with too many values, or nested too deeply, is refused with a 400")
    func valuesAndDepth() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        let (_, token) = try await test.user("alice")
        try await test.withLiveClient { client in
            let before = try await Self.displayName(client, token: token)
            let manyObjects = "[" + Array(repeating: "{}", count: 100_000).joined(separator: ",") + "]"
            let manyNumbers = "[" + Array(repeating: "1", count: 200_000).joined(separator: ",") + "]"
            let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
            let deepObjects = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
            for (rest, words) in [(manyObjects, "too many values"), (manyNumbers, "too many values"), (deep, "nested too deeply"),
                                  (deepObjects, "nested too deeply")] {
                let body = Self.renaming(rest)
                #expect(body.count < APIParams.bodyLimit)
                Self.expectRefused(try await Self.update(client, token: token, contentType: "application/json", body: body), .badRequest, words)
            }
            #expect(try await Self.displayName(client, token: token) == before)
            // Just inside the limits, the same shape is read.
            let fine = Self.renaming(String(repeating: "[", count: JSONLimits.clientRequest.depth - 1) + String(repeating: "]", count: JSONLimits.clientRequest.depth - 1))
            #expect(try await Self.update(client, token: token, contentType: "application/json", body: fine).status == .ok)
            #expect(try await Self.displayName(client, token: token) == "Pwned")
        }
    }

    @Test("a status with a huge media_ids array is refused and nothing is posted")
    func hugeArray() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        let (alice, token) = try await test.user("alice")
        try await test.withLiveClient { client in
            let ids = Array(repeating: "1", count: 200_000).joined(separator: ",")
            let body = Data(#"{"status": "Hello", "media_ids": [\#(ids)]}"#.utf8)
            let response = try await client.execute(uri: "/api/v1/statuses", method: .post,
                                                    headers: [.authorization: "Bearer \(token)", .contentType: "application/json"], body: ByteBuffer(data: body))
            Self.expectRefused(response, .badRequest, "too many values")
            let posts = try await client.api(.get, "/api/v1/accounts/\(alice.id)/statuses", token: token)
            #expect(posts.status == .ok && posts.jsonArray?.isEmpty == true)
        }
    }

    @Test("a form of 200,000 keys and a multipart body of 100,000 parts are refused with a 400")
    func formAndMultipartCounts() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        let (_, token) = try await test.user("alice")
        try await test.withLiveClient { client in
            let before = try await Self.displayName(client, token: token)
            let form = "display_name=Pwned&" + String(repeating: "a[]=&", count: 200_000)
            #expect(form.utf8.count < APIParams.bodyLimit)
            Self.expectRefused(try await Self.update(client, token: token, contentType: "application/x-www-form-urlencoded", body: Data(form.utf8)),
                               .badRequest, "Too many parameters")
            // A query string goes through the same count (empty pairs too: a request line stays short).
            let query = "/api/v1/timelines/public?limit=1" + String(repeating: "&", count: 10_500)
            Self.expectRefused(try await client.api(.get, query, token: token), .badRequest, "Too many parameters")
            var multipart = MultipartBody()
            multipart.field("display_name", "Pwned")
            for _ in 0..<100_000 { multipart.field("a", "x") }
            let (body, contentType) = multipart.finished()
            Self.expectRefused(try await Self.update(client, token: token, contentType: contentType, body: Data(buffer: body)),
                               .badRequest, "Too many parts")
            #expect(try await Self.displayName(client, token: token) == before)
        }
    }

    @Test("the inbox refuses activities past its depth and value limits with a 400")
    func inboxLimits() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        try await test.withLiveClient { client in
            let headers: HTTPFields = [.contentType: "application/activity+json"]
            let many = "[" + Array(repeating: "1", count: 150_000).joined(separator: ",") + "]"
            let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
            for (rest, words) in [(many, "too many values"), (deep, "nested too deeply")] {
                let body = #"{"type": "Create", "actor": "https://remote.example/users/bob", "x": \#(rest)}"#
                let response = try await client.execute(uri: "/inbox", method: .post, headers: headers, body: ByteBuffer(string: body))
                Self.expectRefused(response, .badRequest, words)
            }
        }
    }
}

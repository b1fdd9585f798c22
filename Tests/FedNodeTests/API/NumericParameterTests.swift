@testable import Core
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import FedNode

/// Numbers in query strings, read by `IntParameter` wherever a client sends them: hostile values
/// get a 200 with a clamped page or a 4xx JSON error, never a 500 from the database (SQLite
/// refuses an overflowing OFFSET, PostgreSQL a bigint past its range).
@Suite("Numeric query parameters")
struct NumericParameterTests {
    /// Values no list should choke on.
    static let hostile = ["9223372036854775807", "9223372036854775808", "-9223372036854775808", "-1", "0", "1e99", "abc",
                          "99999999999999999999", "-99999999999999999999", "1.5", "0x10", "%20", "+3", "%D9%A1%D9%A2"]

    @Test("the parser reads plain integers, saturates long digit runs and refuses anything else")
    func integers() {
        #expect(IntParameter.integer("42") == 42)
        #expect(IntParameter.integer(" +7 ") == 7)
        #expect(IntParameter.integer("-0") == 0)
        #expect(IntParameter.integer("99999999999999999999") == .max)
        #expect(IntParameter.integer("-99999999999999999999") == .min)
        for text in ["", " ", "abc", "1e99", "1.5", "0x10", "١٢", "--1", "+", "1 2", nil] as [String?] {
            #expect(IntParameter.integer(text) == nil, "\(String(describing: text))")
        }
    }

    @Test("limits clamp; offsets past their range are refused with a 422; both fall back when unreadable")
    func ranges() throws {
        let limit = IntParameter.limit(default: 20, max: 40)
        #expect(try limit.value("9223372036854775807") == 40)
        #expect(try limit.value("-1") == 1)
        #expect(try limit.value("abc") == 20 && limit.value(nil) == 20)
        #expect(try IntParameter.searchOffset.value("-1") == 0)
        #expect(try IntParameter.searchOffset.value("10000") == 10_000)
        #expect(throws: NodeError.validation("offset must be a number from 0 to 10000")) { try IntParameter.searchOffset.value("10001") }
        #expect(throws: NodeError.self) { try IntParameter.offset.value("99999999999999999999") }
        #expect(try IntParameter.page.value("9223372036854775807") == Int.max - 1)
        #expect(try IntParameter.page.value("true") == 1)
    }

    /// Expects a 200, or a 4xx whose body is a JSON error, for `path`.
    private static func expectServed(_ client: any TestClientProtocol, _ path: String, token: String?,
                                     sourceLocation: SourceLocation = #_sourceLocation) async throws -> TestResponse {
        let response = try await client.api(.get, path, token: token)
        #expect(response.status.code < 500, "\(path): \(response.status)", sourceLocation: sourceLocation)
        if response.status != .ok {
            #expect((400..<500).contains(response.status.code) && response.json?["error"] is String, "\(path): \(response.text.prefix(200))",
                    sourceLocation: sourceLocation)
        }
        return response
    }

    @Test("search: hostile offsets and limits never reach the database as they are")
    func search() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        let (_, token) = try await test.user("viewer")
        for name in ["alice", "alfred", "alina"] { _ = try await test.user(name) }
        try await test.withLiveClient { client in
            for value in Self.hostile {
                for path in ["/api/v2/search?q=al&type=accounts&offset=\(value)", "/api/v2/search?q=al&limit=\(value)",
                             "/api/v1/accounts/search?q=al&offset=\(value)", "/api/v1/accounts/search?q=al&limit=\(value)"] {
                    _ = try await Self.expectServed(client, path, token: token)
                }
            }
            let huge = try await client.api(.get, "/api/v2/search?q=a&offset=9223372036854775807", token: token)
            #expect(huge.status == .unprocessableContent && (huge.json?["error"] as? String)?.contains("offset") == true)
            let accounts = try await client.api(.get, "/api/v1/accounts/search?q=al&offset=99999999999999999999", token: token)
            #expect(accounts.status == .unprocessableContent)
            // In range: a negative offset is the first page, the largest served one is past the results.
            #expect(try await client.api(.get, "/api/v1/accounts/search?q=al&offset=-1", token: token).jsonArray?.count == 3)
            #expect(try await client.api(.get, "/api/v1/accounts/search?q=al&offset=10000", token: token).jsonArray?.isEmpty == true)
            #expect(try await client.api(.get, "/api/v1/accounts/search?q=al&limit=9223372036854775807", token: token).jsonArray?.count == 3)
            #expect(try await client.api(.get, "/api/v1/accounts/search?q=al&limit=-1", token: token).jsonArray?.count == 1)
        }
    }

    @Test("timelines, notifications, the directory and trends clamp limits and ignore unreadable ids")
    func lists() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        let (alice, token) = try await test.user("alice")
        for index in 0..<41 { _ = try await test.node.posts.create(.init(text: "Photo \(index)"), by: alice) }
        try await test.withLiveClient { client in
            for value in Self.hostile {
                for path in ["/api/v1/timelines/public?limit=\(value)", "/api/v1/timelines/public?max_id=\(value)",
                             "/api/v1/timelines/public?since_id=\(value)&min_id=\(value)", "/api/v1/timelines/home?limit=\(value)&max_id=\(value)",
                             "/api/v1/notifications?limit=\(value)", "/api/v1/notifications/unread_count?limit=\(value)",
                             "/api/v1/directory?offset=\(value)&limit=\(value)", "/api/v1/trends/tags?offset=\(value)&limit=\(value)",
                             "/api/v1/accounts/\(alice.id)/statuses?limit=\(value)&max_id=\(value)"] {
                    _ = try await Self.expectServed(client, path, token: token)
                }
            }
            let clamped = try await client.api(.get, "/api/v1/timelines/public?limit=9223372036854775807", token: token)
            #expect(clamped.status == .ok && clamped.jsonArray?.count == 40, "limit is clamped to 40")
            #expect(try await client.api(.get, "/api/v1/timelines/public?max_id=99999999999999999999", token: token).jsonArray?.count == 20)
            #expect(try await client.api(.get, "/api/v1/timelines/public?min_id=99999999999999999999", token: token).jsonArray?.isEmpty == true)
            #expect(try await client.api(.get, "/api/v1/directory?offset=99999999999999999999", token: token).status == .unprocessableContent)
        }
    }

    @Test("ActivityPub collections and web pages serve any page number or max_id")
    func collectionsAndPages() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        let (alice, _) = try await test.user("alice")
        _ = try await test.node.posts.create(.init(text: "The pier"), by: alice)
        try await test.withLiveClient { client in
            let activity: HTTPFields = [.accept: "application/activity+json"]
            for value in Self.hostile {
                for path in ["/users/alice/followers?page=\(value)", "/users/alice/following?page=\(value)",
                             "/users/alice/outbox?page=true&max_id=\(value)"] {
                    let response = try await client.execute(uri: path, method: .get, headers: activity)
                    #expect(response.status == .ok, "\(path): \(response.status)")
                }
                let page = try await client.execute(uri: "/@alice?max_id=\(value)", method: .get, headers: [.accept: "text/html"])
                #expect(page.status == .ok, "/@alice?max_id=\(value): \(page.status)")
            }
            let last = try await client.execute(uri: "/users/alice/followers?page=9223372036854775807", method: .get, headers: activity)
            #expect((last.json?["orderedItems"] as? [Any])?.isEmpty == true)
            #expect((last.json?["id"] as? String)?.hasSuffix("page=9223372036854775806") == true, "the page is clamped to Int.max - 1")
            let outbox = try await client.execute(uri: "/users/alice/outbox?page=true&max_id=99999999999999999999", method: .get, headers: activity)
            #expect((outbox.json?["orderedItems"] as? [Any])?.count == 1)
        }
    }
}

@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// A delivery's outcome is its status line: servers that answer and then never finish the body
/// have still accepted the activity.
@Suite struct DeliveryStatusLineTests {
    static let follow = Data(#"{"@context":"https://www.w3.org/ns/activitystreams","id":"https://social.test/users/alice#follows/1","type":"Follow","actor":"https://social.test/users/alice","object":"https://remote.test/users/bob"}"#.utf8)

    @Test("201 Created without Content-Length on a connection kept open counts as delivered")
    func createdWithoutBody() async throws {
        try await expectDelivered(answer: "HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\n\r\n")
    }

    @Test("202 with an endless body counts as delivered once the status arrived")
    func acceptedWithEndlessBody() async throws {
        try await expectDelivered(answer: "HTTP/1.1 202 Accepted\r\nContent-Length: 1000000\r\n\r\n" + String(repeating: "x", count: 10_000))
    }

    @Test("503 without a body is still a failure, retried")
    func unavailableWithoutBody() async throws {
        let server = try RawHTTPServer(answer: "HTTP/1.1 503 Service Unavailable\r\n\r\nbusy, come back later")
        defer { server.stop() }
        let test = try TestNode.make(); defer { test.remove() }
        let alice = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse battery")
        try await enqueue(on: test.node, from: alice, to: "http://127.0.0.1:\(server.port)/inbox")
        let summary = await DeliveryWorker(node: test.node).deliverDue()
        #expect(summary.retried == 1)
        let row = try #require(try await test.node.database.readSQL { try Delivery.fetchOne($0) })
        #expect(row.lastStatus == 503)
        #expect(row.lastError?.contains("busy, come back later") == true)
    }

    private func expectDelivered(answer: String) async throws {
        let server = try RawHTTPServer(answer: answer)
        defer { server.stop() }
        let test = try TestNode.make(); defer { test.remove() }
        let alice = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse battery")
        try await enqueue(on: test.node, from: alice, to: "http://127.0.0.1:\(server.port)/inbox")
        let summary = await DeliveryWorker(node: test.node).deliverDue()
        #expect(summary.delivered == 1)
        #expect(summary.retried == 0)
        #expect(server.answered == 1)
        #expect(try await test.node.database.readSQL { try Delivery.fetchCount($0) } == 0)
    }

    private func enqueue(on node: Node, from account: Account, to inbox: String) async throws {
        try await node.database.writeSQL { db in
            _ = try Delivery.enqueue(activityUri: "https://social.test/1", payload: Self.follow, accountId: account.id, inboxes: [inbox], in: db)
        }
    }
}

@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
import TestSupport

@testable import FedNode

/// `GET /metrics`: real nodes on loopback federate, and their scrapes show what happened.
@Suite("Prometheus metrics")
struct MetricsTests {
    @Test("a federated follow moves the inbox, delivery, HTTP and group-commit series on both nodes")
    func federatedFollow() async throws {
        try await ServedNode.with { a async throws in
            try await ServedNode.with { b async throws in
                let alice = try await a.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse battery")
                _ = try await b.node.accounts.create(username: "bob", email: "bob@example.com", password: "correct horse battery")
                let bob = try await a.node.remoteAccounts.resolve(uri: "http://127.0.0.1:\(b.port)/users/bob")
                try await a.node.interactions.follow(bob, by: alice)

                // B accepts the signed Follow, processes it and delivers an Accept back to A.
                let onB = try await b.scrape { ($0.value("fednode_delivery_attempts_total", ["outcome": "delivered"]) ?? 0) >= 1 }
                #expect(onB.value("fednode_inbox_accepted_total", ["result": "queued"]) == 1)
                #expect(onB.value("fednode_inbox_accepted_total", ["result": "duplicate"]) == 0)
                #expect(onB.value("fednode_inbox_processed_total", ["outcome": "processed"]) == 1)
                #expect(onB.value("fednode_inbox_refused_total") == nil)
                #expect(onB.value("fednode_delivery_attempts_total", ["outcome": "delivered"]) == 1)
                // The Follow went to bob's inbox or B's shared one, whichever bob's actor names.
                let posts = ["method": "POST", "status": "2xx"]
                #expect(onB.value("fednode_http_request_duration_seconds_count", posts) == 1)
                #expect(onB.value("fednode_http_request_duration_seconds_bucket", posts.merging(["le": "+Inf"]) { $1 }) == 1)
                // Route patterns, never raw paths: no series names an account.
                let routes = onB.labelValues("fednode_http_request_duration_seconds_count", "route")
                #expect(routes.contains("/users/{username}"))
                #expect(!routes.contains { $0.contains("bob") || $0.contains("alice") })
                // The 202 waited for one group commit holding the activity (SQLite's; PostgreSQL
                // groups commits in the server).
                if PostgresTestDatabase.url == nil {
                    #expect((onB.value("fednode_sqlite_group_commit_size_count") ?? 0) >= 1)
                    #expect((onB.value("fednode_sqlite_group_commit_size_sum") ?? 0) >= 1)
                    // The delivered Accept's outcome was queue bookkeeping, in a group of its own kind.
                    #expect((onB.value("fednode_sqlite_bookkeeping_group_size_count") ?? 0) >= 1)
                }

                let onA = try await a.scrape { ($0.value("fednode_inbox_processed_total", ["outcome": "processed"]) ?? 0) >= 1 }
                #expect(onA.value("fednode_delivery_attempts_total", ["outcome": "delivered"]) == 1)
                #expect(onA.value("fednode_delivery_failures_total") == nil)
                #expect(onA.value("fednode_inbox_processed_total", ["outcome": "processed"]) == 1)
                #expect(onA.value("fednode_inbox_accepted_total", ["result": "queued"]) == 1)
            }
        }
    }

    @Test("the answer is the text format, with help and type lines, and labels carry route patterns only")
    func exposition() async throws {
        try await ServedNode.with { served async throws in
            let response = try await served.scrapeResponse()
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
            let missing = try await served.node.httpClient.execute(HTTPClientRequest(url: "http://127.0.0.1:\(served.port)/users/nobody-\(UUID().uuidString)"))
            #expect(missing.status == 404)
            let scrape = try await served.scrape()
            #expect(scrape.types["fednode_inbox_accepted_total"] == "counter")
            #expect(scrape.types["fednode_inbox_queue_depth"] == "gauge")
            #expect(scrape.types["fednode_http_request_duration_seconds"] == "histogram")
            #expect(scrape.help["fednode_delivery_failures_total"] == nil)  // no failure yet, no family
            #expect(scrape.help["fednode_inbox_processed_total"]?.contains("processed") == true)
            #expect(Set(scrape.labelValues("fednode_inbox_queue_depth", "state")) == ["pending", "retrying", "parked"])
            #expect(Set(scrape.labelValues("fednode_delivery_queue_depth", "state")) == ["pending", "retrying", "unavailable"])
            let routes = scrape.labelValues("fednode_http_request_duration_seconds_count", "route")
            #expect(routes.contains("/users/{username}"))
            #expect(!routes.contains { $0.contains("nobody") })
            #expect(routes.allSatisfy { $0.hasPrefix("/") || $0 == "NotFound" })
        }
    }

    @Test("refused inbox POSTs are counted by the status answered")
    func refusedInbox() async throws {
        try await ServedNode.with { served async throws in
            let activity = #"{"id":"https://remote.test/1","type":"Like","actor":"https://remote.test/users/eve","object":"https://remote.test/2"}"#
            let unsigned = HTTPClientRequest(
                method: "POST", url: "http://127.0.0.1:\(served.port)/inbox",
                headers: [("Content-Type", "application/activity+json")], body: Array(activity.utf8))
            #expect(try await served.node.httpClient.execute(unsigned).status == 401)
            var wrongType = unsigned
            wrongType.headers = [("Content-Type", "text/plain")]
            #expect(try await served.node.httpClient.execute(wrongType).status == 415)

            let scrape = try await served.scrape()
            #expect(scrape.value("fednode_inbox_refused_total", ["status": "401"]) == 1)
            #expect(scrape.value("fednode_inbox_refused_total", ["status": "415"]) == 1)
            #expect(scrape.value("fednode_inbox_accepted_total") == 0)
            #expect(scrape.value("fednode_http_request_duration_seconds_count", ["route": "/inbox", "status": "4xx"]) == 2)
        }
    }

    @Test("queue depth gauges count each state from the database when scraped")
    func queueDepths() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, _) = try await t.user("alice")
        let now = Date()
        try await t.node.database.write { tx in
            let items = (0..<4).map { InboxItem(activityId: "https://remote.test/a/\($0)", actorUri: "https://remote.test/users/eve", recipientAccountId: nil, payload: Data("{}".utf8)) }
            for item in items { try tx.inbox.enqueue(item) }
            try tx.inbox.reschedule(items[1].id, attempts: 1, availableAt: now.addingTimeInterval(600), error: "HTTP 500")
            try tx.inbox.park(items[2].id, reason: "failed 8 times", at: now)
            try tx.deliveries.enqueue(activityUri: "https://social.test/1", payload: Data("{}".utf8), accountId: alice.id, inboxes: [
                "https://up.test/inbox", "https://slow.test/inbox", "https://down.test/inbox", "https://down.test/users/x/inbox",
            ])
            let slow = try #require(try tx.deliveries.fairDue(at: now.addingTimeInterval(1), perDomain: 10, limit: 10).first { $0.domain == "slow.test" })
            try tx.deliveries.reschedule(slow.id, attempts: 1, nextAttemptAt: now.addingTimeInterval(600), status: 503, error: "HTTP 503")
            try tx.deliveries.recordFailure("down.test", at: now) { _ in true }
        }
        try await t.withClient { client async throws in
            let scrape = try MetricsScrape(try await client.execute(uri: "/metrics", method: .get).text)
            #expect(scrape.value("fednode_inbox_queue_depth", ["state": "pending"]) == 2)
            #expect(scrape.value("fednode_inbox_queue_depth", ["state": "retrying"]) == 1)
            #expect(scrape.value("fednode_inbox_queue_depth", ["state": "parked"]) == 1)
            #expect(scrape.value("fednode_delivery_queue_depth", ["state": "pending"]) == 1)
            #expect(scrape.value("fednode_delivery_queue_depth", ["state": "retrying"]) == 1)
            #expect(scrape.value("fednode_delivery_queue_depth", ["state": "unavailable"]) == 2)
            #expect(scrape.value("fednode_delivery_unavailable_domains") == 1)
        }
    }

    @Test("an uploaded photo is timed in the media histogram")
    func mediaProcessing() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await t.withClient { client async throws in
            _ = try await StatusFixtures.uploadedMedia(client, token: token)
            let refused = try await StatusFixtures.upload(client, token: token, bytes: Data("not an image at all".utf8))
            #expect(refused.status.code >= 400)
            let scrape = try MetricsScrape(try await client.execute(uri: "/metrics", method: .get).text)
            #expect(scrape.value("fednode_media_processing_seconds_count", ["kind": "post", "result": "ok"]) == 1)
            #expect((scrape.value("fednode_media_processing_seconds_sum", ["kind": "post", "result": "ok"]) ?? 0) > 0)
        }
    }

    @Test("delivery failures get a series per domain up to the cap, then count as other")
    func boundedDomainLabels() throws {
        let metrics = NodeMetrics(maxDomainLabels: 2)
        for domain in ["one.test", "two.test", "three.test", "four.test", "one.test", "Evil\"Domain\n.test"] {
            metrics.delivery.attempted(.retry, domain: domain)
        }
        metrics.delivery.attempted(.gaveUp, domain: "two.test")
        metrics.delivery.attempted(.delivered, domain: "five.test")
        let scrape = try MetricsScrape(String(decoding: metrics.exposition(), as: UTF8.self))
        #expect(scrape.labelValues("fednode_delivery_failures_total", "domain") == ["one.test", "two.test", "other"])
        #expect(scrape.value("fednode_delivery_failures_total", ["domain": "one.test"]) == 2)
        #expect(scrape.value("fednode_delivery_failures_total", ["domain": "two.test"]) == 2)
        #expect(scrape.value("fednode_delivery_failures_total", ["domain": "other"]) == 3)
        #expect(scrape.value("fednode_delivery_attempts_total", ["outcome": "retry"]) == 6)
        #expect(scrape.value("fednode_delivery_attempts_total", ["outcome": "gave_up"]) == 1)
        #expect(BoundedLabel.clean("Evil\"Domain\n.test:8443") == "evil_domain_.test:8443")
    }
}

import Testing

@testable import Benchmarks

/// Reading the figures of a server's `/metrics` that the inbox part and the lists over HTTP report.
@Suite("server metrics scrape")
struct ServerMetricsTests {
    static let before = """
        # HELP fednode_sqlite_group_commit_size Durable inbox writes committed together in one transaction (group commit; SQLite or PostgreSQL, the name kept).
        # TYPE fednode_sqlite_group_commit_size histogram
        fednode_sqlite_group_commit_size_bucket{le="1.0"} 3
        fednode_sqlite_group_commit_size_sum 40.0
        fednode_sqlite_group_commit_size_count 5
        fednode_inbox_processed_total{outcome="processed"} 7
        """

    @Test("series are read by name and labels as served; comments are skipped")
    func parses() {
        let metrics = ServerMetrics(exposition: Self.before)
        #expect(metrics.value("fednode_sqlite_group_commit_size_count") == 5)
        #expect(metrics.value(#"fednode_inbox_processed_total{outcome="processed"}"#) == 7)
        #expect(metrics.value(#"fednode_sqlite_group_commit_size_bucket{le="1.0"}"#) == 3)
        #expect(metrics.value("fednode_sqlite_group_commit_size") == nil)
    }

    @Test("the timed part's group commits are the difference of two scrapes")
    func groupCommitDelta() throws {
        let after = ServerMetrics(exposition: """
            fednode_sqlite_group_commit_size_sum 1040.0
            fednode_sqlite_group_commit_size_count 45
            """)
        let groups = try #require(InboxBench.groupCommits(from: ServerMetrics(exposition: Self.before), to: after))
        #expect(groups.transactions == 40)
        #expect(groups.writes == 1000)
        #expect(InboxBench.groupCommits(from: nil, to: after) == nil)
    }

    @Test("samples are read with their labels, and summed by one label")
    func labels() {
        let metrics = ServerMetrics(exposition: """
            fednode_inbox_processed_total{outcome="processed"} 7
            fednode_inbox_processed_total{outcome="ignored"} 2
            fednode_inbox_accepted_total{result="queued"} 9
            fednode_http_request_duration_seconds_count{route="/api/v1/timelines/home",method="GET",status="2xx"} 10
            fednode_http_request_duration_seconds_count{route="/api/v1/timelines/home",method="GET",status="4xx"} 1
            """)
        #expect(metrics.totals("fednode_inbox_processed_total", by: "outcome") == ["processed": 7, "ignored": 2])
        #expect(metrics.totals("fednode_inbox_processed", by: "outcome").isEmpty, "a name is matched whole")
        let requests = metrics.samples("fednode_http_request_duration_seconds_count")
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.labels["route"] == "/api/v1/timelines/home" && $0.labels["method"] == "GET" })
        #expect(metrics.totals("fednode_http_request_duration_seconds_count", by: "status") == ["2xx": 10, "4xx": 1])
    }

    @Test("a list's server time is the mean over the requests between two scrapes, the scrapes left out")
    func listServerTime() throws {
        let series = { (count: Int, sum: Double, scrapes: Int) in ServerMetrics(exposition: """
            fednode_http_request_duration_seconds_sum{route="/api/v1/timelines/home",method="GET",status="2xx"} \(sum)
            fednode_http_request_duration_seconds_count{route="/api/v1/timelines/home",method="GET",status="2xx"} \(count)
            fednode_http_request_duration_seconds_sum{route="/metrics",method="GET",status="2xx"} \(Double(scrapes) * 0.5)
            fednode_http_request_duration_seconds_count{route="/metrics",method="GET",status="2xx"} \(scrapes)
            """) }
        let mean = try #require(TimelineHTTPBench.meanDuration(from: series(200, 1.0, 1), to: series(2200, 3.0, 2)))
        #expect(abs(mean - 0.001) < 1e-12)
        #expect(TimelineHTTPBench.meanDuration(from: series(200, 1.0, 1), to: series(200, 1.0, 2)) == nil, "no request, no mean")
        #expect(TimelineHTTPBench.meanDuration(from: nil, to: series(200, 1.0, 1)) == nil)
    }
}

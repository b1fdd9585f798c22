import Testing

@testable import Benchmarks

/// Reading the figures of a server's `/metrics` that the inbox part reports.
@Suite("server metrics scrape")
struct ServerMetricsTests {
    static let before = """
        # HELP fednode_sqlite_group_commit_size Durable inbox writes committed together in one SQLite transaction (group commit).
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
}

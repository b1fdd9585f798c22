import Foundation
import Storage

/// Part 3: a 20-post home-timeline page of the reader (who follows 1,000 accounts) in-process
/// through `HomeTimeline.page`, against the bare index range scan on `home_timeline` for the
/// same page. The lists over HTTP are `TimelineHTTPBench`.
struct TimelineBench {
    /// What the in-process measurement found for one size.
    struct Figures: Sendable {
        var posts: Int
        /// Rows in the reader's home timeline.
        var entries: Int
        var page: LatencyStats
        var rawScan: LatencyStats
        /// `EXPLAIN QUERY PLAN` of the page query.
        var plan: [String]
        /// The page p99 of each of the three passes, in milliseconds, lowest first.
        var passP99s: [Double]
    }

    static let pageSize = 20
    let settings: BenchSettings

    /// The pages to read: every fourth the first page, the others start below a post drawn
    /// by a seeded generator from the whole timeline (scrolling back), always a full page.
    static func cursors(entries: [Int64], count: Int) -> [Int64?] {
        var random = SeededGenerator(seed: 0x7173_0003)
        let usable = entries.sorted().dropFirst(pageSize)  // the oldest 20 have no full page below them
        return (0..<count).map { index in
            index % 4 == 0 || usable.isEmpty ? nil : usable[usable.startIndex + Int(random.next() % UInt64(usable.count))]
        }
    }

    /// Measures `database` in this process (nothing else should be running).
    func runInProcess(_ database: TimelineDatabase) throws(BenchError) -> Figures {
        do {
            let node = try NodeDatabase(path: database.path, migrate: false)
            let reader = BenchWorld.readerId
            let entries = try node.readBlocking { try $0.timelines.homePostIds(of: reader) }
            let cursors = Self.cursors(entries: entries, count: settings.timelineQueries)
            _ = try pages(node, cursors)  // warm the page cache and the connection's statement cache
            // Three passes each; the one with the median p99 is kept, so one burst of other work on
            // the shared machine does not decide the figure (all three p99s are reported).
            let passes = try (0..<3).map { _ in try pages(node, cursors) }.sorted { $0.p99 < $1.p99 }
            let rawPasses = try (0..<3).map { _ in try rawScans(node, cursors) }.sorted { $0.p99 < $1.p99 }
            let (page, raw) = (passes[1], rawPasses[1])
            let plan = try node.readBlocking { try $0.timelines.homePagePlan(of: reader, limit: Self.pageSize) }
            return Figures(posts: database.posts, entries: entries.count, page: page, rawScan: raw, plan: plan,
                           passP99s: passes.map(\.p99))
        } catch let error as BenchError { throw error } catch {
            throw .setup("timeline on \(database.path): \(error)")
        }
    }

    /// Each page as the node reads it: one read transaction around `Timelines.homeRows`.
    private func pages(_ node: NodeDatabase, _ cursors: [Int64?]) throws -> LatencyStats {
        var samples: [UInt64] = []
        samples.reserveCapacity(cursors.count)
        for cursor in cursors {
            let start = MonotonicClock.now()
            let page = try node.readBlocking { try $0.timelines.homeRows(of: BenchWorld.readerId, maxId: cursor, limit: Self.pageSize) }
            samples.append(MonotonicClock.now() - start)
            if page.count != Self.pageSize { throw BenchError.setup("a page of \(page.count) posts below \(cursor ?? 0)") }
        }
        return LatencyStats(samples)
    }

    /// The same pages as a prepared statement over the index alone: the floor for a page.
    private func rawScans(_ node: NodeDatabase, _ cursors: [Int64?]) throws -> LatencyStats {
        let samples = try node.readBlocking {
            try $0.timelines.timeRawHomeScans(of: BenchWorld.readerId, cursors: cursors, limit: Self.pageSize, clock: MonotonicClock.now)
        }
        return LatencyStats(samples)
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Part 4: time from spawning `fednode serve` to its first `200` on `/healthz` with the
/// largest database, its resident memory when idle, and the same for an empty node; the
/// client-API timeline runs on the idle server once its memory was read.
struct StartupBench {
    /// What was measured.
    struct Figures: Sendable {
        var posts: Int
        /// Spawn to first 200, each start.
        var starts: [Double]
        var idleBytes: Int
        /// Where the idle memory is.
        var idleBreakdown: String
        /// The lists over HTTP (empty when the timeline part did not run).
        var http: [TimelineHTTPBench.Page]
    }

    /// What start-up and idle memory are compared with, measured once per run.
    struct References: Sendable {
        /// A node on an empty data directory.
        var emptyIdleBytes: Int
        var emptyStart: Double
        /// Spawn to exit of `fednode --help`: the floor of any start.
        var helpRuns: [Double]
    }

    let settings: BenchSettings
    /// How long a started server is left alone before its idle memory is read.
    let settle: UInt32 = 2

    func run(_ database: TimelineDatabase, timeline: TimelineBench?) throws(BenchError) -> Figures {
        let directory = settings.runDirectory("serve-\(database.posts)")
        try database.copy(to: directory)
        if timeline != nil { try TimelineHTTPBench.addWebSession(toDatabaseAt: (directory as NSString).appendingPathComponent("fednode.sqlite")) }
        var starts: [Double] = []
        for _ in 0..<2 {
            let server = try ServerProcess(binary: settings.binary, dataDirectory: directory, logPath: directory + "/server.log")
            defer { server.stop() }
            starts.append(try server.waitUntilServing())
        }
        let server = try ServerProcess(binary: settings.binary, dataDirectory: directory, logPath: directory + "/server.log")
        defer { server.stop() }
        starts.append(try server.waitUntilServing())
        sleep(settle)
        let idle = server.memory().resident
        let breakdown = server.memoryBreakdown()
        var http: [TimelineHTTPBench.Page] = []
        if let timeline { http = try TimelineHTTPBench(settings: timeline.settings).run(port: server.port, database: database) }
        server.stop()
        return Figures(posts: database.posts, starts: starts, idleBytes: idle, idleBreakdown: breakdown, http: http)
    }

    /// An empty node's start and idle memory, and three runs of `fednode --help`.
    func references() throws(BenchError) -> References {
        let (emptyStart, emptyIdle) = try emptyNode()
        var helpRuns: [Double] = []
        for _ in 0..<3 { helpRuns.append(try helpRun()) }
        return References(emptyIdleBytes: emptyIdle, emptyStart: emptyStart, helpRuns: helpRuns)
    }

    /// A node on an empty data directory (it creates its database and instance key).
    private func emptyNode() throws(BenchError) -> (Double, Int) {
        let directory = settings.runDirectory("empty")
        try? FileManager.default.removeItem(atPath: directory)
        let server = try ServerProcess(binary: settings.binary, dataDirectory: directory, logPath: directory + ".log")
        defer { server.stop() }
        let start = try server.waitUntilServing()
        sleep(settle)
        return (start, server.memory().resident)
    }

    private func helpRun() throws(BenchError) -> Double {
        let start = MonotonicClock.now()
        try Subprocess([settings.binary, "--help"]).wait()
        return MonotonicClock.seconds(from: start, to: MonotonicClock.now())
    }
}

import Foundation

/// Part 1: signed `Create(Note)` activities accepted (202) per second by the shared inbox of a
/// `fednode serve` process, 64 connections; their latency; then how fast the inbox worker
/// drains what was accepted. Reference: the same generator against `GET /healthz`.
struct InboxBench {
    /// What one size measured.
    struct Figures: Sendable {
        var posts: Int
        var accepted: LoadResult
        var reference: LoadResult
        /// Items not yet started when the last 202 came back.
        var backlog: Int
        /// Timed activities handled per second, first request to empty queue.
        var drainRate: Double
        /// Whether the queue emptied within the limit.
        var drained: Bool
        var outcomes: [String: Int]
        /// Whether `outcomes` are the server's own counts (`/metrics`), not the database's.
        var outcomesFromMetrics = false
        /// Activities the server counted as queued while the timed requests were sent
        /// (`fednode_inbox_accepted_total{result="queued"}`), `nil` when it could not be read.
        var serverQueued: Int? = nil
        var startSeconds: Double
        var peakBytes: Int
        /// `VmHWM` before the part began (start-up included), after which the peak was reset.
        var startPeakBytes: Int
        /// CPU seconds of the server and of the benchmark process while the timed requests were sent.
        var serverCPU: Double
        var generatorCPU: Double
        /// CPU seconds of the server from the last 202 until every item had started: only the
        /// worker ran, on the `backlog` items.
        var drainCPU: Double
        /// Durable transactions the inbox's group commit made for the timed activities, and the
        /// writes they held, from the server's `/metrics` (`nil` when it could not be read).
        var groupCommits: (transactions: Double, writes: Double)? = nil

        /// The server's CPU per activity, split between accepting it (the request up to its 202)
        /// and processing it (the worker, from the queue to the timelines), in seconds: processing
        /// from the drain after the last 202, when nothing else ran; accepting from the burst,
        /// less the processing of the items the worker started meanwhile (up to a worker's width
        /// of items is in flight at either end, which roughly cancels out). `nil` when the queue
        /// did not drain or either share is not positive.
        func cpuPerActivity(accepted: Int) -> (accepting: Double, processing: Double)? {
            guard drained, backlog > 0, accepted > 0 else { return nil }
            let processing = drainCPU / Double(backlog)
            let accepting = (serverCPU - Double(accepted - backlog) * processing) / Double(accepted)
            guard processing > 0, accepting > 0 else { return nil }
            return (accepting, processing)
        }
    }

    let settings: BenchSettings
    let log: @Sendable (String) -> Void

    /// Runs against a fresh copy of `database`, with pre-signed `warmUp` and `timed` requests.
    func run(_ database: TimelineDatabase, warmUp: [[UInt8]], timed: [[UInt8]]) throws(BenchError) -> Figures {
        let directory = settings.runDirectory("inbox-\(database.posts)")
        try database.copy(to: directory)
        let server = try ServerProcess(binary: settings.binary, dataDirectory: directory, logPath: directory + "/server.log")
        defer { server.stop() }
        let start = try server.waitUntilServing()
        let startPeak = server.resetPeak()
        let monitor = try QueueMonitor(path: directory + "/fednode.sqlite")
        let generator = LoadGenerator(port: server.port, connections: settings.connections)

        let reference = try generator.run(InboxTraffic.gets(Array(repeating: "/healthz", count: timed.count)))
        let warm = try generator.run(warmUp)
        guard warm.statuses[202] == warmUp.count else {
            throw .server("warm-up answered \(warm.statuses) (\(warm.failures) failed); log: \(server.logTail())")
        }
        guard QueueMonitor.wait(limit: 120, { monitor.inboxPending == 0 }) != nil else { throw .timedOut("inbox warm-up drain") }

        log("inbox \(database.posts) posts: \(timed.count) signed activities, \(settings.connections) connections")
        let sendStart = MonotonicClock.now()
        let metricsBefore = ServerMetrics.scrape(port: server.port)
        let (serverBefore, generatorBefore) = (CPUTime.seconds(pid: server.pid), CPUTime.ownSeconds())
        let accepted = try generator.run(timed)
        let serverAfter = CPUTime.seconds(pid: server.pid)
        let backlog = monitor.inboxPending
        let (serverCPU, generatorCPU) = (serverAfter - serverBefore, CPUTime.ownSeconds() - generatorBefore)
        log("inbox \(database.posts) posts: \(Int(accepted.rate(of: 202)))/s accepted, draining the queue")
        let metricsAfter = ServerMetrics.scrape(port: server.port)
        let groupCommits = Self.groupCommits(from: metricsBefore, to: metricsAfter)
        let queued = { (metrics: ServerMetrics?) in metrics?.totals("fednode_inbox_accepted_total", by: "result")["queued"] }
        let drainedAt = QueueMonitor.wait(limit: 150) { monitor.inboxPending == 0 }
        let end = drainedAt ?? MonotonicClock.now()
        let drainCPU = CPUTime.seconds(pid: server.pid) - serverAfter
        let handled = drainedAt == nil ? timed.count - max(0, monitor.inboxPending) : timed.count
        // The outcomes as an operator reads them, since the start (warm-up included).
        let ended = ServerMetrics.scrape(port: server.port)?.totals("fednode_inbox_processed_total", by: "outcome")
            .filter { $0.value > 0 }.mapValues { Int($0) }
        var figures = Figures(
            posts: database.posts, accepted: accepted, reference: reference, backlog: backlog,
            drainRate: Double(handled) / MonotonicClock.seconds(from: sendStart, to: end), drained: drainedAt != nil,
            outcomes: monitor.outcomes, startSeconds: start, peakBytes: server.memory().peak, startPeakBytes: startPeak,
            serverCPU: serverCPU, generatorCPU: generatorCPU, drainCPU: drainCPU, groupCommits: groupCommits)
        if let ended, !ended.isEmpty { (figures.outcomes, figures.outcomesFromMetrics) = (ended, true) }
        if let start = queued(metricsBefore), let end = queued(metricsAfter) { figures.serverQueued = Int(end - start) }
        return figures
    }

    /// The group commits between two scrapes: transactions, and the writes they held.
    static func groupCommits(from before: ServerMetrics?, to after: ServerMetrics?) -> (transactions: Double, writes: Double)? {
        let (count, sum) = ("fednode_sqlite_group_commit_size_count", "fednode_sqlite_group_commit_size_sum")
        guard let before, let after, let startCount = before.value(count), let endCount = after.value(count),
            let startSum = before.value(sum), let endSum = after.value(sum)
        else { return nil }
        return (endCount - startCount, endSum - startSum)
    }
}

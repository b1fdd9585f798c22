import Core
import FedNode
import Foundation
import Logging
import Storage

/// Part 2: local posts by an account whose 1,000 remote followers are spread over 200
/// loopback inboxes (5 per inbox, so shared inboxes collapse them to 200 deliveries a post),
/// delivered by a `fednode serve --test-mode` process. Deliveries per second, from the first
/// request reaching a sink to the last one acknowledged; the reference, `openssl speed` RSA-2048
/// sign/s on every core, is measured separately in the same run.
struct DeliveryBench {
    /// What was measured.
    struct Figures: Sendable {
        var deliveries: Int
        /// Deliveries per second, first arrival to last acknowledgement.
        var rate: Double
        /// Seconds from the posts' commit to the last acknowledgement (includes the worker's wake-up).
        var endToEnd: Double
        /// Seconds from the commit to the first delivery arriving.
        var wakeUp: Double
        /// Deliveries that carried a signature.
        var signed: Int
        var peakBytes: Int
        /// `VmHWM` before the part began (start-up included), after which the peak was reset.
        var startPeakBytes: Int
        /// Deliveries each post caused (200 when shared inboxes collapse the followers).
        var perPost: Double
        /// CPU seconds per delivery of the server, and of the benchmark process (its sinks,
        /// mostly), from the posts' commit to the last acknowledgement: the two share the cores.
        var serverCPU: Double
        var benchCPU: Double
    }

    let settings: BenchSettings
    let log: @Sendable (String) -> Void
    /// The PostgreSQL database the node runs on; `nil`: SQLite in its data directory.
    var databaseURL: String? = nil

    func run() async throws -> Figures {
        // 200 domains on 50 machines: four domains share an address, as on shared hosting.
        let sink = try LoopbackSink(count: settings.sinkCount, machines: max(1, settings.sinkCount / 4))
        sink.start()
        defer { sink.stop() }
        let directory = settings.runDirectory(databaseURL == nil ? "delivery" : "postgres-delivery")
        try? FileManager.default.removeItem(atPath: directory)
        let (node, author) = try await makeNode(directory: directory, sinks: Array(zip(sink.addresses, sink.ports)))
        let server = try ServerProcess(binary: settings.binary, dataDirectory: directory,
                                       arguments: ["--test-mode"] + (databaseURL.map { ["--database", $0] } ?? []),
                                       logPath: directory + "/server.log")
        defer { server.stop() }
        try server.waitUntilServing()
        let startPeak = server.resetPeak()
        let monitor = try databaseURL.map { url throws(BenchError) in try QueueMonitor(url: url) }
            ?? QueueMonitor(path: directory + "/fednode.sqlite")

        // Warm-up post: connections to every sink, the signer's parsed key.
        _ = try await node.posts.create(PostService.Draft(text: "Warm-up photo #photography"), by: author)
        guard QueueMonitor.wait(limit: 60, { sink.answered >= settings.sinkCount && monitor.deliveriesQueued == 0 }) != nil else {
            throw BenchError.timedOut("warm-up delivery (\(sink.answered) of \(settings.sinkCount) answered); log: \(server.logTail())")
        }
        let before = sink.answered
        let expected = before + settings.deliveryPosts * settings.sinkCount
        log("delivery: \(settings.deliveryPosts) posts x \(settings.sinkCount) inboxes")
        let (serverBefore, benchBefore) = (CPUTime.seconds(pid: server.pid), CPUTime.ownSeconds())
        let committed = MonotonicClock.now()
        for index in 0..<settings.deliveryPosts {
            _ = try await node.posts.create(PostService.Draft(text: "Photo \(index) from the bench #photography"), by: author)
        }
        guard QueueMonitor.wait(limit: 300, { sink.answered >= expected }) != nil else {
            throw BenchError.timedOut("deliveries (\(sink.answered - before) of \(expected - before)); log: \(server.logTail())")
        }
        let (serverCPU, benchCPU) = (CPUTime.seconds(pid: server.pid) - serverBefore, CPUTime.ownSeconds() - benchBefore)
        _ = QueueMonitor.wait(limit: 30) { monitor.deliveriesQueued == 0 }
        let tally = sink.snapshot
        let firstArrival = tally.arrivals[before...].min() ?? committed
        let lastAnswer = tally.answers[before...].max() ?? committed
        let count = tally.answered - before
        return Figures(
            deliveries: count, rate: Double(count) / MonotonicClock.seconds(from: firstArrival, to: lastAnswer),
            endToEnd: MonotonicClock.seconds(from: committed, to: lastAnswer),
            wakeUp: MonotonicClock.seconds(from: committed, to: firstArrival), signed: tally.signed,
            peakBytes: server.memory().peak, startPeakBytes: startPeak, perPost: Double(count) / Double(settings.deliveryPosts),
            serverCPU: serverCPU / Double(max(count, 1)), benchCPU: benchCPU / Double(max(count, 1)))
    }

    /// A node database with the posting account and its followers on the sinks, made through
    /// the node's own services where they exist.
    private func makeNode(directory: String, sinks: [(address: String, port: Int)]) async throws -> (Node, Account) {
        var configuration = NodeConfiguration(domain: "delivery.\(BenchWorld.localDomain)", testMode: true)
        configuration.dataDirectory = directory
        configuration.databaseURL = databaseURL
        configuration.passwordCost = 10
        var logger = Logger(label: "bench")
        logger.logLevel = .warning
        let node = try Node(configuration: configuration, logger: logger)
        let author = try await node.accounts.create(username: "author", email: "author@bench.example", password: "bench-password")
        let followers = settings.followerCount
        try await node.database.write { tx in
            for index in 0..<followers {
                let sink = sinks[index % sinks.count]
                let domain = "\(sink.address):\(sink.port)"
                var follower = Account(username: "f\(index)", domain: domain, uri: "http://\(domain)/users/f\(index)")
                follower.inboxUrl = follower.uri + "/inbox"
                follower.sharedInboxUrl = "http://\(domain)/inbox"
                follower.followersUrl = follower.uri + "/followers"
                try tx.accounts.insert(follower)
                try tx.follows.insert(Follow(accountId: follower.id, targetAccountId: author.id, uri: follower.uri + "/follows/1", state: .accepted))
            }
        }
        return (node, author)
    }
}

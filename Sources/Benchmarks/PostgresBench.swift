import Foundation
import Synchronization

/// Part 6 (PostgreSQL, `make bench` starts a throwaway cluster): the timeline lists over HTTP,
/// the inbox and deliveries with the node's data on PostgreSQL, the same requests as the SQLite
/// parts of the same run (their reference), and the inbox again with two `fednode serve`
/// processes on one database, the load spread over both, to show how it scales from one
/// process to two.
struct PostgresBench {
    /// One inbox run: what was accepted and how fast the queue drained.
    struct InboxRun: Sendable {
        var processes: Int
        var accepted: LoadResult
        var drainRate: Double
        var drained: Bool
        var outcomes: [String: Int]
        /// Accepted per second over all processes (first request to last answer of any).
        var acceptedRate: Double { accepted.seconds > 0 ? Double(accepted.statuses[202, default: 0]) / accepted.seconds : 0 }
    }

    /// What the part measured.
    struct Figures: Sendable {
        var posts: Int
        var inbox: [InboxRun] = []
        /// The client-API and web lists over HTTP, one process, before the inbox traffic.
        var timeline: [TimelineHTTPBench.Page] = []
        /// Why the lists have no figures, when a list did not answer in time.
        var timelineFailure: String?
        var delivery: DeliveryBench.Figures?
        /// The server's durability and memory settings, as it reports them (`name=value, …`).
        var serverSettings = ""
        /// The share of the machine's CPU (all cores) PostgreSQL's processes used over the part.
        var serverCPUShare: Double?
        /// The mean SQL statements per processed inbound `Create`, one process (its `/metrics`).
        var statementsPerCreate: Double?
    }

    let settings: BenchSettings
    /// A database on the cluster; the part creates databases beside it.
    let serverURL: String
    let log: @Sendable (String) -> Void

    /// Runs the inbox with one process and with two on copies of `database`, then deliveries.
    func run(_ database: TimelineDatabase, warmUp: [[UInt8]], timed: [[UInt8]]) async throws -> Figures {
        var figures = Figures(posts: database.posts)
        figures.serverSettings = (try? serverSettings()) ?? "(not read)"
        let cpuBefore = Self.serverCPUSeconds()
        let started = MonotonicClock.now()
        for processes in [1, 2] {
            log("postgres inbox \(database.posts) posts, \(processes) process\(processes == 1 ? "" : "es"): \(timed.count) signed activities")
            let (run, lists, creates) = try inbox(database, processes: processes, warmUp: warmUp, timed: timed, lists: processes == 1)
            figures.inbox.append(run)
            if processes == 1 { figures.statementsPerCreate = creates }
            switch lists {
            case .success(let pages): figures.timeline += pages
            case .failure(let error): figures.timelineFailure = "\(error)"
            }
        }
        log("postgres delivery: \(settings.deliveryPosts) posts x \(settings.sinkCount) inboxes")
        figures.delivery = try await DeliveryBench(settings: settings, log: log, databaseURL: try createDatabase()).run()
        let wall = MonotonicClock.seconds(from: started, to: MonotonicClock.now())
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        if let before = cpuBefore, let after = Self.serverCPUSeconds(), wall > 0 { figures.serverCPUShare = (after - before) / (wall * cores) }
        return figures
    }

    /// The settings that decide what a commit costs, read from the server.
    private func serverSettings() throws(BenchError) -> String {
        guard let components = URLComponents(string: serverURL), let user = components.user else { return "(not read)" }
        let socket = components.queryItems?.first { $0.name == "host" }?.value
        var command = ["psql", "-At", "-U", user, "-h", socket ?? components.host ?? "localhost", "-d", String(components.path.dropFirst())]
        if socket == nil, let port = components.port { command += ["-p", String(port)] }
        command += ["-c", "SELECT string_agg(name || '=' || current_setting(name), ', ' ORDER BY name) FROM pg_settings "
                    + "WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes', 'wal_sync_method', 'shared_buffers', 'max_connections')"]
        let result = try Subprocess.output(of: command, scratch: settings.runDirectory("pg-settings.txt"))
        guard result.code == 0 else { return "(not read: \(result.output.prefix(200)))" }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// CPU seconds (user and system) of every process named `postgres` on the machine, with
    /// those of the children each has waited for (the server's connections end with the node
    /// processes of each run, and their time is then the server's): the benchmark's cluster is
    /// the only one running while it measures. `nil` without `/proc`.
    static func serverCPUSeconds() -> Double? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var total = 0.0
        for pid in entries where pid.allSatisfy(\.isNumber) {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
                  stat[stat.index(after: open)..<close] == "postgres" else { continue }
            // After the name: state is field 3; utime, stime, cutime and cstime are fields 14 to 17.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 14 else { continue }
            total += fields[11...14].compactMap { Double($0) }.reduce(0, +) / ticks
        }
        return total
    }

    /// The inbox part on a PostgreSQL copy of `database`, served by `processes` processes;
    /// with `lists`, the timeline lists over HTTP first (on the first process).
    private func inbox(_ database: TimelineDatabase, processes: Int, warmUp: [[UInt8]], timed: [[UInt8]],
                       lists: Bool) throws(BenchError) -> (InboxRun, Result<[TimelineHTTPBench.Page], BenchError>, Double?) {
        let directory = settings.runDirectory("postgres-inbox-\(database.posts)-\(processes)")
        try? FileManager.default.removeItem(atPath: directory)
        try database.copy(to: directory)
        if lists { try TimelineHTTPBench.addWebSession(toDatabaseAt: directory + "/fednode.sqlite") }
        let url = try createDatabase()
        let copied = try Subprocess.output(
            of: [settings.binary, "migrate-data", "--from", "sqlite:\(directory)/fednode.sqlite", "--to", url], scratch: directory + "/migrate-data.txt")
        guard copied.code == 0 else { throw .setup("migrate-data into \(url) failed: \(copied.output.suffix(500))") }
        var servers: [ServerProcess] = []
        defer { for server in servers { server.stop() } }
        for index in 0..<processes {
            servers.append(try ServerProcess(binary: settings.binary, dataDirectory: directory, arguments: ["--database", url],
                                             logPath: directory + "/server-\(index).log"))
        }
        for server in servers { _ = try server.waitUntilServing() }
        let monitor = try QueueMonitor(url: url)
        // A list that does not answer in time is reported, not fatal: the inbox still runs.
        var pages: Result<[TimelineHTTPBench.Page], BenchError> = .success([])
        if lists {
            log("postgres lists over HTTP, \(database.posts) posts")
            pages = Result { () throws(BenchError) in try TimelineHTTPBench(settings: settings).run(port: servers[0].port, database: database) }
            if case .failure(let error) = pages { log("postgres lists over HTTP: \(error)") }
        }

        let warm = try LoadGenerator(port: servers[0].port, connections: settings.connections).run(warmUp)
        guard warm.statuses[202] == warmUp.count else {
            throw .server("warm-up answered \(warm.statuses) (\(warm.failures) failed); log: \(servers[0].logTail())")
        }
        guard QueueMonitor.wait(limit: 180, { monitor.inboxPending == 0 }) != nil else { throw .timedOut("postgres inbox warm-up drain") }

        // The timed requests dealt round-robin to the processes, as a balancer would, each
        // process getting its share of the connections; all generators start together.
        let shares = (0..<processes).map { index in stride(from: index, to: timed.count, by: processes).map { timed[$0] } }
        let results = Mutex<[Result<LoadResult, BenchError>]>([])
        let ports = servers.map(\.port)
        let metricsBefore = ServerMetrics.scrape(port: servers[0].port)
        let sendStart = MonotonicClock.now()
        DispatchQueue.concurrentPerform(iterations: processes) { index in
            let generator = LoadGenerator(port: ports[index], connections: max(1, settings.connections / processes))
            let result = Result { () throws(BenchError) -> LoadResult in try generator.run(shares[index]) }
            results.withLock { $0.append(result) }
        }
        var accepted = LoadResult()
        for result in results.withLock({ $0 }) {
            let part = try result.get()
            accepted.latencies += part.latencies
            accepted.failures += part.failures
            accepted.statuses.merge(part.statuses, uniquingKeysWith: +)
            accepted.seconds = max(accepted.seconds, part.seconds)
        }
        let drainedAt = QueueMonitor.wait(limit: 300) { monitor.inboxPending == 0 }
        let end = drainedAt ?? MonotonicClock.now()
        let handled = drainedAt == nil ? timed.count - max(0, monitor.inboxPending) : timed.count
        let run = InboxRun(processes: processes, accepted: accepted,
                           drainRate: Double(handled) / MonotonicClock.seconds(from: sendStart, to: end),
                           drained: drainedAt != nil, outcomes: monitor.outcomes)
        let creates = TimelineHTTPBench.mean("fednode_inbox_activity_statements", labels: ["type": "Create"], from: metricsBefore,
                                             to: ServerMetrics.scrape(port: servers[0].port))
        return (run, pages, creates)
    }

    /// Creates an empty database beside `serverURL` (with `createdb`) and returns its URL.
    private func createDatabase() throws(BenchError) -> String {
        guard let components = URLComponents(string: serverURL), let user = components.user else {
            throw .setup("FEDNODE_BENCH_DATABASE_URL is not a postgres:// URL: \(serverURL)")
        }
        let name = "bench_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let socket = components.queryItems?.first { $0.name == "host" }?.value
        var command = ["createdb", "-U", user, "-h", socket ?? components.host ?? "localhost"]
        if socket == nil, let port = components.port { command += ["-p", String(port)] }
        let created = try Subprocess.output(of: command + [String(name)], scratch: settings.runDirectory("createdb.txt"))
        guard created.code == 0 else { throw .setup("createdb \(name) failed: \(created.output)") }
        var fresh = components
        fresh.path = "/" + name
        return fresh.string ?? serverURL
    }
}

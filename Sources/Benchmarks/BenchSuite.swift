import Foundation
import Signatures

/// `fednode bench`: prepares the data (cached), runs the selected parts in an order that keeps
/// them from disturbing each other, and returns the report.
public struct BenchSuite: Sendable {
    let settings: BenchSettings

    /// A suite with `settings`.
    public init(settings: BenchSettings) {
        self.settings = settings
    }

    /// Runs everything selected, printing progress to stderr.
    /// - Returns: The rendered table (also written to `settings.output` when set).
    public func run() async throws -> String {
        let started = MonotonicClock.now()
        try? FileManager.default.createDirectory(atPath: settings.runDirectory(""), withIntermediateDirectories: true)
        let scratch = settings.runDirectory("command-output.txt")
        var report = BenchReport(
            machine: MachineInfo.current(), command: settings.command,
            commit: Self.commit(scratch: scratch),
            startedAt: Date(), quick: settings.quick)
        var results = Results()
        // Photos first, while this process is small: its peak memory is the pipeline's, not
        // that of the generated databases' page cache or the signed requests of other parts.
        if settings.parts.contains(.media) {
            results.media = try await MediaBench(settings: settings, log: Self.log).run()
        }
        let keys = try ActorKeys.load(count: BenchWorld.keyCount, directory: settings.dataDirectory, log: Self.log)
        let databases = settings.sizes.sorted().map { TimelineDatabase(posts: $0, directory: settings.dataDirectory) }
        for database in databases { try database.prepare(keys: keys, log: Self.log) }

        if settings.parts.contains(.timeline) {
            let bench = TimelineBench(settings: settings)
            for database in databases {
                Self.log("timeline \(database.posts) posts: \(settings.timelineQueries) pages in-process")
                results.timeline[database.posts] = try bench.runInProcess(database)
            }
        }
        if settings.parts.contains(.memory) || settings.parts.contains(.timeline) {
            // At every size, for the cost curve; the budgets are read at the largest.
            for database in databases {
                Self.log("start, idle memory\(settings.parts.contains(.timeline) ? " and the lists over HTTP" : "") at \(database.posts) posts")
                results.startups[database.posts] = try StartupBench(settings: settings)
                    .run(database, timeline: settings.parts.contains(.timeline) ? TimelineBench(settings: settings) : nil)
            }
            results.startupReferences = try StartupBench(settings: settings).references()
        }
        var traffic: (warmUp: [[UInt8]], timed: [[UInt8]])?
        if settings.parts.contains(.inbox) || (settings.parts.contains(.postgres) && settings.postgresURL != nil) {
            Self.log("signing \(BenchWorld.keyedActorCount + settings.inboxRequests) inbox requests")
            traffic = (try InboxTraffic.signed(0..<BenchWorld.keyedActorCount, keys: keys),
                       try InboxTraffic.signed(BenchWorld.keyedActorCount..<(BenchWorld.keyedActorCount + settings.inboxRequests), keys: keys))
        }
        if settings.parts.contains(.inbox), let (warmUp, timed) = traffic {
            let bench = InboxBench(settings: settings, log: Self.log)
            for database in databases { results.inbox[database.posts] = try bench.run(database, warmUp: warmUp, timed: timed) }
            if let largest = databases.last, let burst = results.inbox[largest.posts] {
                results.sustained = try SustainedInboxBench(settings: settings, log: Self.log).run(
                    largest, startingAt: burst.drainRate, firstActivity: BenchWorld.keyedActorCount + settings.inboxRequests, warmUp: warmUp, keys: keys)
            }
        }
        if settings.parts.contains(.delivery) {
            Self.log("reference: openssl speed rsa2048 on \(report.machine.cores) processes")
            results.openssl = try OpenSSLSpeed.measure(seconds: settings.opensslSeconds, processes: report.machine.cores, scratch: scratch)
            results.delivery = try await DeliveryBench(settings: settings, log: Self.log).run()
        }
        if settings.parts.contains(.postgres), let url = settings.postgresURL, let smallest = databases.first, let (warmUp, timed) = traffic {
            results.postgres = try await PostgresBench(settings: settings, serverURL: url, log: Self.log)
                .run(smallest, warmUp: warmUp, timed: timed)
        }

        if settings.parts.contains(.attack) {
            results.attack = try await AttackBench(settings: settings, log: Self.log).run()
        }

        ReportBuilder(settings: settings, results: results).fill(&report)
        report.seconds = MonotonicClock.seconds(from: started, to: MonotonicClock.now())
        report.loadAtEnd = MachineInfo.loadAverageNow()
        if let output = settings.output { try report.write(to: output) }
        return report.text
    }

    /// The commit measured, marked when tracked files other than the report differ from it.
    static func commit(scratch: String) -> String {
        let commit = MachineInfo.output(of: ["git", "rev-parse", "--short", "HEAD"], scratch: scratch) ?? "unknown"
        let changed = (MachineInfo.output(of: ["git", "status", "--porcelain", "--untracked-files=no"], scratch: scratch) ?? "")
            .split(separator: "\n").filter { !$0.hasSuffix("BENCHMARKS.md") }
        return changed.isEmpty ? commit : commit + " with uncommitted changes"
    }

    /// Progress goes to stderr so stdout carries only the table.
    @Sendable static func log(_ message: String) {
        FileHandle.standardError.write(Data("bench: \(message)\n".utf8))
    }
}

/// Everything the parts measured, keyed by database size where there is one per size.
struct Results: Sendable {
    var timeline: [Int: TimelineBench.Figures] = [:]
    /// Start, idle memory and the lists over HTTP, per size.
    var startups: [Int: StartupBench.Figures] = [:]
    /// Those at the largest size, where the budgets are read.
    var startup: StartupBench.Figures? { startups.keys.max().flatMap { startups[$0] } }
    /// An empty node and `fednode --help`, what those compare with.
    var startupReferences: StartupBench.References?
    var inbox: [Int: InboxBench.Figures] = [:]
    /// The PostgreSQL part, on the smallest database.
    var postgres: PostgresBench.Figures?
    /// The rates tried on the largest database, in order.
    var sustained: [SustainedInboxBench.Step] = []
    var openssl: OpenSSLSpeed.Figures?
    var delivery: DeliveryBench.Figures?
    var media: MediaBench.Figures?
    var attack: AttackBench.Figures?
}

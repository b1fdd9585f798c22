import ArgumentParser
import Benchmarks
import Foundation

/// `fednode bench`: the performance benchmarks, each figure against its budget and against a
/// reference measured in the same run; prints one table and writes `BENCHMARKS.md`.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run the benchmark suite against `fednode serve` processes on loopback and write BENCHMARKS.md.")

    @Option(help: "Parts to run, comma-separated: inbox, delivery, timeline, memory (default: all).")
    var parts: String?
    @Option(help: "Database sizes (posts) of the cost curve, comma-separated (default 10000,100000,1000000).")
    var sizes: String?
    @Option(name: .customLong("inbox-requests"), help: "Timed inbox requests per size (default 20000).")
    var inboxRequests: Int?
    @Option(help: "Concurrent connections of the load generator (default 64).")
    var connections: Int?
    @Option(name: .customLong("data-dir"), help: "Cache for keys and generated databases, and scratch space.")
    var dataDir = ".bench"
    @Option(help: "Report file; '-' prints only (default BENCHMARKS.md, or .bench/BENCHMARKS-quick.md with --quick).")
    var output: String?
    @Option(help: "The fednode executable to benchmark (default: this one).")
    var server: String?
    @Option(name: .customLong("sustained-rates"), help: "Inbox rates (per second) to hold in the sustained part, comma-separated, instead of searching from the drain rate.")
    var sustainedRates: String?
    @Flag(help: "A fast smoke run: one 10k-post database, few requests.")
    var quick = false

    func run() async throws {
        var settings = BenchSettings(binary: try serverBinary(), command: Self.invocation())
        if quick { settings.makeQuick() }
        settings.dataDirectory = dataDir
        settings.output = output ?? (quick ? (dataDir as NSString).appendingPathComponent("BENCHMARKS-quick.md") : "BENCHMARKS.md")
        if settings.output == "-" { settings.output = nil }
        // The postgres part needs a cluster: `make bench` starts a throwaway one and names it here.
        settings.postgresURL = ProcessInfo.processInfo.environment["FEDNODE_BENCH_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        if let parts {
            let chosen = try parts.split(separator: ",").map { name in
                guard let part = BenchPart(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                    throw ValidationError("unknown part \(name); use inbox, delivery, timeline, memory")
                }
                return part
            }
            settings.parts = Set(chosen)
        }
        if let sizes {
            let values = sizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !values.isEmpty, values.allSatisfy({ $0 >= 1_000 }) else { throw ValidationError("--sizes takes post counts of at least 1000") }
            settings.sizes = values
        }
        if let inboxRequests { settings.inboxRequests = max(100, inboxRequests) }
        if let connections { settings.connections = max(1, connections) }
        if let sustainedRates {
            let rates = sustainedRates.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard !rates.isEmpty, rates.allSatisfy({ $0.map { $0.isFinite && $0 >= 10 && $0 <= 1_000_000 } ?? false }) else {
                throw ValidationError("--sustained-rates takes rates per second from 10 to 1000000, comma-separated")
            }
            settings.sustainedRates = rates.compactMap { $0 }
            guard settings.parts.contains(.inbox) else { throw ValidationError("--sustained-rates needs the inbox part") }
        }
        print(try await BenchSuite(settings: settings).run())
    }

    /// The executable serving the node: `--server`, else the running `fednode` itself.
    private func serverBinary() throws -> String {
        if let server { return server }
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            throw ValidationError("cannot find this executable; pass --server PATH")
        }
        return path
    }

    /// The command as the report quotes it: `FEDNODE_BENCH_COMMAND` (set by `make bench`) and
    /// the arguments this process got.
    private static func invocation() -> String {
        let arguments = CommandLine.arguments.joined(separator: " ")
        guard let outer = ProcessInfo.processInfo.environment["FEDNODE_BENCH_COMMAND"] else { return arguments }
        return "\(outer)` → `\(arguments)"
    }
}

import Dispatch
import Foundation
import Signatures
import Synchronization

/// Part 1, sustained: the accept rate the node keeps up with. Signed activities arrive at a
/// steady pace for `seconds` (open loop, as from many servers) while the inbox queue is sampled
/// every second; a rate is sustained when every request got its 202 and the queue stopped
/// growing: its depth over the last tenth of the run is no more than over the third tenth plus
/// one second of arrivals, and under five seconds of arrivals. The first rate tried is the
/// burst run's drain rate; then one and a half times the best sustained rate so far, or two
/// thirds of the lowest failed one, for `steps` rates in all.
struct SustainedInboxBench {
    /// One rate tried.
    struct Step: Sendable {
        var rate: Double
        var accepted: LoadResult
        /// Queue depth (not yet attempted) sampled every second.
        var depths: [Int]
        var sustained: Bool
        /// Cores the benchmark process used while the requests were sent (the load generator,
        /// and the queue sampling), from its utime + stime.
        var generatorCores: Double = 0
    }

    let settings: BenchSettings
    let log: @Sendable (String) -> Void
    /// How long each rate is held.
    static func seconds(_ settings: BenchSettings) -> Double { settings.quick ? 10 : 60 }
    var seconds: Double { Self.seconds(settings) }
    /// Rates tried: four, so that after a rate that held and one that grew there is a step
    /// between them (with three, a first rate and its two thirds that both grew left the figure
    /// at four ninths of the first, however close the second came to holding).
    let steps = 4

    /// Runs against a fresh copy of `database`; activities from number `firstActivity` on are
    /// signed with `keys` as each step needs them.
    func run(_ database: TimelineDatabase, startingAt rate: Double, firstActivity: Int, warmUp: [[UInt8]],
             keys: [RSAPrivateKey]) throws(BenchError) -> [Step] {
        let directory = settings.runDirectory("sustained-\(database.posts)")
        try database.copy(to: directory)
        let server = try ServerProcess(binary: settings.binary, dataDirectory: directory, logPath: directory + "/server.log")
        defer { server.stop() }
        _ = try server.waitUntilServing()
        let monitor = try QueueMonitor(path: directory + "/fednode.sqlite")
        let generator = LoadGenerator(port: server.port, connections: settings.connections)
        _ = try generator.run(warmUp)
        _ = QueueMonitor.wait(limit: 120) { monitor.inboxPending == 0 }
        var results: [Step] = []
        let chosen = settings.sustainedRates
        var (next, rate) = (firstActivity, max(10, rate.rounded()))
        for index in 0..<(chosen?.count ?? steps) {
            if let chosen { rate = chosen[index].rounded() }
            let count = Int(rate * seconds)
            log("inbox sustained: \(Int(rate))/s for \(Int(seconds)) s (signing \(count) requests)")
            let requests = try InboxTraffic.signed(next..<(next + count), keys: keys)
            next += count
            let step = try hold(rate, requests, generator: generator, monitor: monitor)
            results.append(step)
            _ = QueueMonitor.wait(limit: 150) { monitor.inboxPending == 0 }
            let best = results.filter(\.sustained).map(\.rate).max()
            let failed = results.filter { !$0.sustained }.map(\.rate).min()
            rate = (best.map { $0 * 1.5 } ?? failed.map { $0 * 2 / 3 } ?? rate).rounded()
            if let failed, let best, rate >= failed { rate = ((best + failed) / 2).rounded() }
        }
        return results
    }

    /// Sends `requests` at `rate` per second while sampling the queue depth every second.
    private func hold(_ rate: Double, _ requests: [[UInt8]], generator: LoadGenerator, monitor: QueueMonitor) throws(BenchError) -> Step {
        let samples = Mutex<(depths: [Int], done: Bool)>(([], false))
        let sampled = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            while !samples.withLock({ $0.done }) {
                let depth = monitor.inboxPending
                samples.withLock { $0.depths.append(depth) }
                usleep(1_000_000)
            }
            sampled.signal()
        }
        let cpuBefore = CPUTime.ownSeconds()
        let accepted = try generator.run(requests, limit: seconds * 2 + 30, perSecond: rate)
        let generatorCores = (CPUTime.ownSeconds() - cpuBefore) / max(accepted.seconds, 0.001)
        samples.withLock { $0.done = true }
        sampled.wait()
        let depths = samples.withLock { $0.depths }
        return Step(rate: rate, accepted: accepted, depths: depths,
                    sustained: accepted.statuses[202, default: 0] == requests.count && Self.bounded(depths, rate: rate),
                    generatorCores: generatorCores)
    }

    /// Whether the sampled depths stopped growing (see the type's description).
    static func bounded(_ depths: [Int], rate: Double) -> Bool {
        guard depths.count >= 10 else { return false }
        let tenth = depths.count / 10
        let average = { (slice: ArraySlice<Int>) in Double(slice.reduce(0, +)) / Double(max(1, slice.count)) }
        let early = average(depths[(2 * tenth)..<(3 * tenth)])
        let late = average(depths[(depths.count - tenth)...])
        return late <= early + rate && late <= rate * 5
    }
}

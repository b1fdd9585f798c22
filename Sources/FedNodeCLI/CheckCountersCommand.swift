import ArgumentParser
import Core
import FedNode
import Storage

/// `fednode check-counters`: recounts followers, following and posts of every account and
/// replies, boosts and likes of every post, compares them with the kept counters, prints one
/// line per difference and exits 1 if there is any.
struct CheckCountersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-counters",
        abstract: "Check that the kept account and post counters agree with a recount of the rows.")

    @OptionGroup var options: NodeOptions

    func run() async throws {
        let node = try openNode(options)
        let mismatches: [CounterMismatch]
        do { mismatches = try await node.database.read { try $0.statistics.counterMismatches() } } catch {
            throw ValidationError("cannot read the counters: \(error)")
        }
        if mismatches.isEmpty { print("All counters agree with a recount."); return }
        for mismatch in mismatches { print(mismatch) }
        print("\(mismatches.count) counters differ from a recount.")
        throw ExitCode.failure
    }
}

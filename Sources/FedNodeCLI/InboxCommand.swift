import ArgumentParser
import Core
import FedNode
import Foundation
import Storage

/// `fednode inbox parked|retry`: inspect and requeue inbox items taken out of processing.
struct InboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inbox", abstract: "Inspect the inbox queue.",
        subcommands: [Parked.self, Retry.self])

    /// `fednode inbox parked`: one line per parked item.
    struct Parked: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List inbox items parked after dying with the node or failing too often.")
        @OptionGroup var options: NodeOptions

        func run() async throws {
            let node = try openNode(options)
            let items: [InboxItem]
            do { items = try await node.database.read { try $0.inbox.parked() } } catch {
                throw ValidationError("cannot read the inbox queue: \(error)")
            }
            if items.isEmpty { print("No parked inbox items."); return }
            for item in items {
                let parkedAt = item.parkedAt?.formatted(.iso8601) ?? "-"
                print("\(item.id)\t\(parkedAt)\t\(item.activityId ?? "-")\t\(item.actorUri)\t\(item.lastError ?? "-")")
            }
        }
    }

    /// `fednode inbox retry ID`: puts a parked item back in the queue.
    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Put a parked inbox item back in the queue.")
        @OptionGroup var options: NodeOptions
        @Argument(help: "The item's id, as `fednode inbox parked` lists it.") var id: Int64

        func run() async throws {
            let node = try openNode(options)
            let requeued: Bool
            do { requeued = try await node.database.write { try $0.inbox.unpark(id, at: Date()) } } catch {
                throw ValidationError("cannot write the inbox queue: \(error)")
            }
            guard requeued else { throw ValidationError("no parked inbox item \(id)") }
            print("Requeued inbox item \(id); a running node processes it within seconds.")
        }
    }
}

import ArgumentParser
import Core
import FedNode
import Foundation
import Storage

/// `fednode admin ...`: the moderation and queue chores an operator does from the shell,
/// effective at once on a running node (it reads blocks and queues from the database).
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Domain blocks, rules, reports, suspensions and queue status for operators.",
        subcommands: [DomainBlock.self, DomainUnblock.self, DomainBlocks.self, Queues.self, RetryDeliveries.self,
                      Rules.self, RuleAdd.self, RuleRemove.self, Reports.self, Suspend.self,
                      InviteCreate.self, Invites.self, DomainAllowAdd.self, DomainAllowRemove.self, DomainAllowList.self])

    /// `fednode admin domain-block DOMAIN`.
    struct DomainBlock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "domain-block",
            abstract: "Stop all federation with a domain and its subdomains; its queued deliveries are dropped.")
        @OptionGroup var options: NodeOptions
        @Argument(help: "The domain, e.g. spam.example.") var domain: String

        func run() async throws {
            let domain = try AdminCommand.checked(domain)
            let node = try openNode(options)
            let result = try await AdminCommand.write(node) { try $0.domainBlocks.add(domain, at: Date()) }
            print(result.added ? "Blocked \(domain) and its subdomains; dropped \(result.droppedDeliveries) queued deliveries."
                               : "\(domain) was already blocked.")
        }
    }

    /// `fednode admin domain-unblock DOMAIN`.
    struct DomainUnblock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "domain-unblock", abstract: "Lift a domain block.")
        @OptionGroup var options: NodeOptions
        @Argument(help: "The domain, exactly as blocked.") var domain: String

        func run() async throws {
            let domain = try AdminCommand.checked(domain)
            let node = try openNode(options)
            guard try await AdminCommand.write(node, { try $0.domainBlocks.remove(domain) }) else {
                throw ValidationError("\(domain) is not blocked")
            }
            print("Unblocked \(domain).")
        }
    }

    /// `fednode admin domain-blocks`.
    struct DomainBlocks: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "domain-blocks", abstract: "List blocked domains.")
        @OptionGroup var options: NodeOptions

        func run() async throws {
            let node = try openNode(options)
            let blocks = try await AdminCommand.read(node) { try $0.domainBlocks.all() }
            if blocks.isEmpty { print("No blocked domains."); return }
            for block in blocks { print("\(block.domain)\t\(block.createdAt.formatted(.iso8601))") }
        }
    }

    /// `fednode admin queues`.
    struct Queues: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Inbox and delivery backlog, per remote domain, and parked inbox items.")
        @OptionGroup var options: NodeOptions
        @Option(help: "Domains listed per queue.") var top: Int = 20

        func run() async throws {
            let node = try openNode(options)
            let limit = max(1, top)
            let (depths, inbox, deliveries) = try await AdminCommand.read(node) { tx in
                (try tx.statistics.queueDepths(), try tx.statistics.inboxBacklogByDomain(limit: limit),
                 try tx.statistics.deliveryBacklogByDomain(limit: limit))
            }
            print("inbox: \(depths.inboxWaiting) waiting, \(depths.inboxParked) parked (fednode inbox parked|retry)")
            for row in inbox { print("  \(row.domain)\t\(row.items)\tmax attempts \(row.maxAttempts)\toldest \(AdminCommand.time(row.oldest))") }
            print("deliveries: \(depths.deliveriesQueued) queued (fednode admin retry-deliveries [--to DOMAIN])")
            for row in deliveries {
                let state = row.unavailable ? "unavailable" : "available"
                print("  \(row.domain)\t\(row.items)\t\(state)\tmax attempts \(row.maxAttempts)\toldest \(AdminCommand.time(row.oldest))")
            }
        }
    }

    /// `fednode admin retry-deliveries [--domain D]`.
    struct RetryDeliveries: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retry-deliveries",
            abstract: "Make queued deliveries due now and mark their domain available (a server came back).")
        @OptionGroup var options: NodeOptions
        @Option(name: .customLong("to"), help: "Only deliveries to this domain (host[:port], as `admin queues` lists it).") var domain: String?

        func run() async throws {
            let node = try openNode(options)
            let domain = self.domain
            let count = try await AdminCommand.write(node) { try $0.deliveries.retryNow(domain: domain, at: Date()) }
            print("\(count) deliveries are due now; a running node sends them within seconds.")
        }
    }

    /// `domain` in the spelling the API's domain policy uses (`DomainPolicyService.normalized`),
    /// else a usage error.
    static func checked(_ domain: String) throws -> String {
        do { return try DomainPolicyService.normalized(domain) } catch {
            throw ValidationError("'\(domain)' is not a domain name (for example spam.example)")
        }
    }

    static func read<T: Sendable>(_ node: Node, _ body: @escaping @Sendable (Transaction) throws -> T) async throws -> T {
        do { return try await node.database.read(body) } catch { throw ValidationError("database: \(error)") }
    }

    static func write<T: Sendable>(_ node: Node, _ body: @escaping @Sendable (Transaction) throws -> T) async throws -> T {
        do { return try await node.database.write(body) } catch { throw ValidationError("database: \(error)") }
    }

    static func time(_ date: Date?) -> String { date?.formatted(.iso8601) ?? "-" }
}

import ArgumentParser
import Core
import FedNode
import Foundation
import Storage

extension AdminCommand {
    /// `fednode admin rules`.
    struct Rules: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rules", abstract: "List the instance rules.")
        @OptionGroup var options: NodeOptions

        func run() async throws {
            let node = try openNode(options)
            let rules = try await AdminCommand.read(node) { try $0.moderation.rules() }
            if rules.isEmpty { print("No rules.") }
            for rule in rules { print("\(rule.id ?? 0)\t\(rule.text)") }
        }
    }

    /// `fednode admin rule-add TEXT [--hint H]`.
    struct RuleAdd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rule-add", abstract: "Add an instance rule (shown in /api/v1/instance/rules and picked in reports).")
        @OptionGroup var options: NodeOptions
        @Argument(help: "The rule, at most 300 characters.") var text: String
        @Option(help: "A longer explanation.") var hint: String = ""

        func run() async throws {
            let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty, text.count <= 300, hint.count <= 2_000 else { throw ValidationError("A rule is 1 to 300 characters, its hint at most 2,000") }
            let node = try openNode(options)
            let hint = hint
            let rule = try await AdminCommand.write(node) { try $0.moderation.addRule(text: text, hint: hint, at: Date()) }
            print("Added rule \(rule.id ?? 0).")
        }
    }

    /// `fednode admin rule-remove ID`.
    struct RuleRemove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rule-remove", abstract: "Remove an instance rule.")
        @OptionGroup var options: NodeOptions
        @Argument(help: "The rule's id, as `fednode admin rules` lists it.") var id: Int64

        func run() async throws {
            let node = try openNode(options)
            let id = id
            guard try await AdminCommand.write(node, { try $0.moderation.removeRule(id: id) }) else { throw ValidationError("No rule \(id)") }
            print("Removed rule \(id).")
        }
    }

    /// `fednode admin reports [--resolved]`.
    struct Reports: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reports", abstract: "List open (or resolved) reports.")
        @OptionGroup var options: NodeOptions
        @Flag(help: "Resolved reports instead of open ones.") var resolved = false

        func run() async throws {
            let node = try openNode(options)
            let resolved = resolved
            let (rows, notes) = try await AdminCommand.read(node) { db in
                let reports = try db.moderation.reports(resolved: resolved, by: nil, about: nil, page: PageBounds(limit: 200))
                let rows = try reports.map { report in
                    (report, try db.accounts.find(id: report.accountId)?.acct ?? "?", try db.accounts.find(id: report.targetAccountId)?.acct ?? "?")
                }
                return (rows, try db.reportNotes.counts(of: reports.compactMap(\.id)))
            }
            if rows.isEmpty { print(resolved ? "No resolved reports." : "No open reports.") }
            for (report, by, about) in rows {
                let noteCount = notes[report.id ?? 0] ?? 0
                print("\(report.id ?? 0)\t\(AdminCommand.time(report.createdAt))\t\(by) -> \(about)\t\(report.category)\t\(noteCount) notes\t\(report.comment.prefix(80))")
            }
        }
    }

    /// `fednode admin suspend ACCT` / `unsuspend ACCT`.
    struct Suspend: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "suspend", abstract: "Suspend an account (local NAME or remote NAME@DOMAIN); --undo lifts it.")
        @OptionGroup var options: NodeOptions
        @Argument(help: "NAME or NAME@DOMAIN.") var account: String
        @Flag(help: "Lift the suspension.") var undo = false

        func run() async throws {
            let node = try openNode(options)
            let parts = account.split(separator: "@", maxSplits: 1).map(String.init)
            let (username, domain, undo) = (parts.first ?? "", parts.count > 1 ? parts[1].lowercased() : nil, undo)
            let found = try await AdminCommand.write(node) { db -> Bool in
                guard let target = try db.accounts.find(username: username, domain: domain) else { return false }
                var measures = try db.moderation.measures(of: target.id)
                measures.suspendedAt = undo ? nil : Date()
                if !undo, !target.isLocal { try db.moderation.purge(account: target.id) }
                try db.moderation.save(measures)
                return true
            }
            guard found else { throw ValidationError("No account \(account)") }
            print(undo ? "Lifted the suspension of \(account)." : "Suspended \(account).")
        }
    }
}

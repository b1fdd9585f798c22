import ArgumentParser
import Core
import FedNode
import Foundation
import Storage

extension AdminCommand {
    /// `fednode admin invite [--max-uses N] [--expires-in HOURS] [--by NAME]`.
    struct InviteCreate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "invite",
            abstract: "Make an invite link: sign-up with its code skips approval and works when registrations are closed.")
        @OptionGroup var options: NodeOptions
        @Option(name: .customLong("max-uses"), help: "How many sign-ups it allows (default: no limit).") var maxUses: Int?
        @Option(name: .customLong("expires-in"), help: "Hours it works for (default: no expiry).") var expiresIn: Double?
        @Option(help: "The local account shown as inviting (default: the node's administrators).") var by: String?

        func run() async throws {
            let node = try openNode(options)
            do {
                var creator: Int64?
                if let by { creator = try await node.accounts.local(by).id }
                let made = try RegistrationService(node: node).createInvite(maxUses: maxUses, expiresInHours: expiresIn, by: creator)
                print(made.url)
            } catch { throw ValidationError(error.message) }
        }
    }

    /// `fednode admin invites`.
    struct Invites: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "invites", abstract: "List invite links with their uses and expiry.")
        @OptionGroup var options: NodeOptions

        func run() async throws {
            let node = try openNode(options)
            let invites: [(invite: Invite, url: String)]
            do { invites = try RegistrationService(node: node).invites() } catch { throw ValidationError(error.message) }
            if invites.isEmpty { print("No invites.") }
            let now = Date()
            for (invite, url) in invites {
                let uses = "\(invite.uses)/\(invite.maxUses.map(String.init) ?? "unlimited") uses"
                let state = invite.isUsable(at: now) ? "usable" : "used up or expired"
                print("\(url)\t\(uses)\texpires \(AdminCommand.time(invite.expiresAt))\t\(state)")
            }
        }
    }

    /// `fednode admin domain-allow DOMAIN`.
    struct DomainAllowAdd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "domain-allow", abstract: "Allow federation with a domain and its subdomains (allow-list mode).")
        @OptionGroup var options: NodeOptions
        @Argument(help: "The domain, e.g. friends.example.") var domain: String

        func run() async throws {
            let domain = try AdminCommand.checked(domain)
            let node = try openNode(options)
            let mode = try await AdminCommand.write(node) { db -> FederationMode in
                _ = try db.domainAllows.add(domain, at: Date())
                return try db.domainAllows.mode()
            }
            print("Allowed \(domain)" + (mode == .allowlist ? "." : " (it matters once the node runs with --federation-mode allowlist)."))
        }
    }

    /// `fednode admin domain-disallow DOMAIN`.
    struct DomainAllowRemove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "domain-disallow", abstract: "Lift the allow of a domain; in allow-list mode federation with it stops.")
        @OptionGroup var options: NodeOptions
        @Argument(help: "The domain, exactly as allowed.") var domain: String

        func run() async throws {
            let domain = try AdminCommand.checked(domain)
            let node = try openNode(options)
            let removed = try await AdminCommand.write(node) { db -> Bool in
                guard let allow = try db.domainAllows.find(domain: domain) else { return false }
                return try db.domainAllows.remove(allow)
            }
            guard removed else { throw ValidationError("\(domain) is not allowed") }
            print("Disallowed \(domain).")
        }
    }

    /// `fednode admin domain-allows`.
    struct DomainAllowList: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "domain-allows", abstract: "Show the federation mode and the allowed domains.")
        @OptionGroup var options: NodeOptions

        func run() async throws {
            let node = try openNode(options)
            let (mode, allows) = try await AdminCommand.read(node) { db in (try db.domainAllows.mode(), try db.domainAllows.all()) }
            print("federation mode: \(mode.rawValue)")
            if allows.isEmpty { print("No allowed domains.") }
            for allow in allows { print("\(allow.domain)\t\(AdminCommand.time(allow.createdAt))") }
        }
    }
}

import ArgumentParser
import Core
import FedNode
import Foundation
import Storage

/// `fednode user create|list|delete`: manage local accounts.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage local accounts.",
        subcommands: [Create.self, List.self, Delete.self, Role.self, Export.self, Alias.self])

    /// `fednode user create NAME --email E [--password P]`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a local account (prompts for the password when --password is omitted).")
        @OptionGroup var options: NodeOptions
        @Argument(help: "Username: letters, digits and underscore, at most 30 characters.") var name: String
        @Option(help: "Sign-in email.") var email: String
        @Option(help: "Password (at least 8 characters); prompted for when omitted.") var password: String?
        @Option(name: .customLong("display-name"), help: "Display name.") var displayName: String = ""
        @Flag(help: "Make the account staff: the node's owner when it has none yet, else an admin.") var admin = false

        func run() async throws {
            let node = try openNode(options)
            let password = try password ?? PasswordPrompt.read()
            do {
                let account = try await node.accounts.create(username: name, email: email, password: password, displayName: displayName)
                print("Created @\(account.username)@\(node.urls.domain)  \(account.uri)")
                if admin { print("Role: \(try node.accounts.promoteFirstAdmin(account.id))") }
            } catch { throw ValidationError(error.message) }
        }
    }

    /// `fednode user list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List local accounts.")
        @OptionGroup var options: NodeOptions

        func run() async throws {
            let node = try openNode(options)
            let rows: [(account: Storage.Account, email: String)]
            do { rows = try node.accounts.listLocal() } catch { throw ValidationError(error.message) }
            if rows.isEmpty { print("No local accounts."); return }
            for row in rows {
                print("\(row.account.username)\t\(row.email)\t\(row.account.uri)\t\(row.account.createdAt.formatted(.iso8601))")
            }
        }
    }

    /// `fednode user role NAME ROLE`, or `fednode user role` to list the staff.
    struct Role: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give a local account a staff role (owner, admin, moderator; user removes it), or list the staff.")
        @OptionGroup var options: NodeOptions
        @Argument(help: "Username.") var name: String?
        @Argument(help: "owner, admin, moderator or user.") var role: String?

        func run() async throws {
            let node = try openNode(options)
            do {
                guard let name else {
                    let staff = try node.accounts.staff()
                    if staff.isEmpty { print("No staff.") }
                    for member in staff { print("\(member.username)\t\(member.role)") }
                    return
                }
                guard let role else { throw ValidationError("Give a role: owner, admin, moderator or user") }
                try node.accounts.setRole(role, of: name)
                print("@\(name) is now \(role.lowercased())")
            } catch let error as NodeError { throw ValidationError(error.message) }
        }
    }

    /// `fednode user delete NAME`.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a local account and everything it owns.")
        @OptionGroup var options: NodeOptions
        @Argument(help: "Username.") var name: String

        func run() async throws {
            let node = try openNode(options)
            do { try node.accounts.delete(username: name) } catch { throw ValidationError(error.message) }
            print("Deleted @\(name)@\(node.urls.domain)")
        }
    }
}

/// Opens the node's database for an admin command, turning failures into CLI errors.
func openNode(_ options: NodeOptions) throws -> Node {
    let configuration = try options.makeConfiguration()
    do { return try Node(configuration: configuration, logger: options.makeLogger(level: .warning)) } catch {
        throw ValidationError(error.message)
    }
}

import ArgumentParser
import Core
import FedNode
import Foundation

extension UserCommand {
    /// `fednode user alias NAME [URI...]`: lists a local account's aliases (`alsoKnownAs`), or
    /// adds actor ids to them (each fetched and checked to be a real actor), the step before
    /// moving another account to this one.
    struct Alias: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a local account's aliases (alsoKnownAs), or add actor URIs to them.")
        @OptionGroup var options: NodeOptions
        @Argument(help: "Username.") var name: String
        @Argument(help: "Actor ids (https://server/users/name) to add.") var uris: [String] = []
        @Flag(help: "Remove all aliases instead.") var clear = false

        func run() async throws {
            let node = try openNode(options)
            do {
                let account = try await node.accounts.local(name)
                if clear { try await node.migrations.setAliases([], of: account) } else if !uris.isEmpty {
                    try await node.migrations.addAliases(uris, to: account)
                }
                let aliases = try await node.migrations.aliases(of: account)
                print(aliases.isEmpty ? "@\(name) has no aliases." : aliases.joined(separator: "\n"))
            } catch { throw ValidationError(error.message) }
        }
    }
}

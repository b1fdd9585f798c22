import ArgumentParser
import Core
import FedNode
import Foundation

extension UserCommand {
    /// `fednode user export NAME --to FILE.zip`.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a local account's archive (actor, outbox, likes, photos, Mastodon CSV lists) to a ZIP file.")
        @OptionGroup var options: NodeOptions
        @Argument(help: "Username.") var name: String
        @Option(help: "The ZIP file to write (replaced when it exists).") var to: String

        func run() async throws {
            let node = try openNode(options)
            let size: Int
            do { size = try await node.writeArchive(of: name, to: URL(fileURLWithPath: to)) } catch { throw ValidationError(error.message) }
            print("Wrote the archive of @\(name)@\(node.urls.domain) to \(to) (\(size) bytes)")
        }
    }
}

import ArgumentParser
import Core
import FedNode
import Storage

/// `fednode migrate`: apply pending database migrations and report them.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "migrate", abstract: "Apply pending database migrations.")

    @OptionGroup var options: NodeOptions

    func run() async throws {
        let configuration = try options.makeConfiguration()
        do {
            let database = try NodeDatabase(location: configuration.databaseLocation, migrate: false)
            let applied = try database.migrate()
            print(applied.isEmpty ? "Database is up to date (\(database.path))." : "Applied: \(applied.joined(separator: ", "))")
        } catch {
            throw ValidationError("\(error)")
        }
    }
}

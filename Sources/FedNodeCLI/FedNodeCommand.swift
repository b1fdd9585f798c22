import ArgumentParser

/// `fednode`: run a node and administer it.
@main
struct FedNodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fednode",
        abstract: "A self-hosted, federated photo-sharing server.",
        subcommands: [ServeCommand.self, UserCommand.self, InboxCommand.self, AdminCommand.self, MigrateCommand.self, BackupCommand.self,
                      RestoreCommand.self, MigrateDataCommand.self, CheckCountersCommand.self, BenchCommand.self],
        defaultSubcommand: ServeCommand.self)
}

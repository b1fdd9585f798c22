@testable import Core
import FedNode
import Dispatch
import Foundation
import Storage
import Testing
import TestSupport

/// Runs the real `fednode` executable built next to the test bundle.
struct FedNodeProcess {
    static var executable: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("fednode")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/fednode")
    }

    /// Runs `fednode arguments`, feeding `input` on stdin; returns status and output. Waits on a
    /// Dispatch thread: a cooperative thread blocked on a child process would starve every
    /// in-process server of the other suites (the pool has as many threads as cores).
    static func run(_ arguments: [String], input: String = "", environment: [String: String] = [:]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try runBlocking(arguments, input: input, environment: environment) })
            }
        }
    }

    private static func runBlocking(_ arguments: [String], input: String, environment: [String: String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try ChildProcess.run(executable.path, arguments,
                             environment: ProcessInfo.processInfo.environment.merging(["FEDNODE_PASSWORD_COST": "10"].merging(environment) { $1 }) { $1 },
                             input: Data(input.utf8))
    }
}

@Suite("fednode command line")
struct CLITests {
    let dataDir = (NSTemporaryDirectory() as NSString).appendingPathComponent("fednode-cli-\(UUID().uuidString)")

    @Test("user create, list and delete, with the domain remembered by the data directory")
    func userLifecycle() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let created = try await FedNodeProcess.run(["user", "create", "alice", "--email", "alice@example.com", "--password", "correct horse",
                                              "--data-dir", dataDir, "--domain", "photos.test"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.contains("https://photos.test/users/alice"))
        // Password from stdin when --password is omitted; no --domain: the stored one is used.
        let piped = try await FedNodeProcess.run(["user", "create", "bob", "--email", "bob@example.com", "--data-dir", dataDir], input: "another secret\n")
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.contains("https://photos.test/users/bob"))
        let listed = try await FedNodeProcess.run(["user", "list", "--data-dir", dataDir])
        #expect(listed.stdout.contains("alice\talice@example.com"))
        #expect(listed.stdout.contains("bob\tbob@example.com"))
        #expect(try await FedNodeProcess.run(["user", "delete", "alice", "--data-dir", dataDir]).status == 0)
        #expect(!(try await FedNodeProcess.run(["user", "list", "--data-dir", dataDir]).stdout.contains("alice")))
    }

    @Test("staff roles and instance rules from the shell: the first --admin is the owner; rules show in the instance document")
    func rolesAndRules() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let first = try await FedNodeProcess.run(["user", "create", "ada", "--email", "ada@example.com", "--password", "correct horse",
                                                  "--admin", "--data-dir", dataDir, "--domain", "photos.test"])
        #expect(first.status == 0 && first.stdout.contains("Role: owner"), "\(first.stderr)")
        let second = try await FedNodeProcess.run(["user", "create", "bea", "--email", "bea@example.com", "--password", "correct horse",
                                                   "--admin", "--data-dir", dataDir])
        #expect(second.stdout.contains("Role: admin"))
        #expect(try await FedNodeProcess.run(["user", "role", "bea", "moderator", "--data-dir", dataDir]).status == 0)
        let staff = try await FedNodeProcess.run(["user", "role", "--data-dir", dataDir])
        #expect(staff.stdout.contains("ada\towner") && staff.stdout.contains("bea\tmoderator"))
        let wrong = try await FedNodeProcess.run(["user", "role", "bea", "emperor", "--data-dir", dataDir])
        #expect(wrong.status != 0 && wrong.stderr.contains("Unknown role"))
        #expect(try await FedNodeProcess.run(["admin", "rule-add", "Be kind", "--hint", "No harassment", "--data-dir", dataDir]).status == 0)
        #expect(try await FedNodeProcess.run(["admin", "rules", "--data-dir", dataDir]).stdout.contains("Be kind"))
        #expect(try await FedNodeProcess.run(["admin", "rule-remove", "99", "--data-dir", dataDir]).status != 0)
        #expect(try await FedNodeProcess.run(["admin", "reports", "--data-dir", dataDir]).stdout.contains("No open reports."))
        #expect(try await FedNodeProcess.run(["admin", "suspend", "bea", "--data-dir", dataDir]).stdout.contains("Suspended bea."))
    }

    @Test("bad arguments end with a clear error and a failure status", arguments: [
        (["user", "create", "bad-name", "--email", "a@example.com", "--password", "correct horse"], "letters"),
        (["user", "create", "carol", "--password", "correct horse"], "--email"),
        (["user", "create", "carol", "--email", "nope", "--password", "correct horse"], "Email"),
        (["user", "create", "carol", "--email", "c@example.com", "--password", "short"], "too short"),
        (["user", "delete", "nobody"], "nobody"),
        (["serve", "--port", "eighty"], "port"),
        (["serve", "--log-level", "loud"], "log-level"),
        (["serve", "--public-url", "ftp://x"], "public-url"),
        (["serve", "--domain", "bad domain"], "domain"),
        (["serve", "--role", "janitor"], "--role must be one of all, web, worker"),
        (["serve", "--role", "web"], "needs a database the node's processes share"),
        (["frobnicate"], "frobnicate"),
    ])
    func badArguments(arguments: [String], mention: String) async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let result = try await FedNodeProcess.run(arguments + ["--data-dir", dataDir])
        #expect(result.status != 0)
        #expect(result.stderr.localizedCaseInsensitiveContains(mention), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
    }

    @Test("migrate is a no-op the second time")
    func migrate() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let first = try await FedNodeProcess.run(["migrate", "--data-dir", dataDir])
        #expect(first.status == 0)
        #expect(first.stdout.contains("Applied"))
        let second = try await FedNodeProcess.run(["migrate", "--data-dir", dataDir])
        #expect(second.stdout.contains("up to date"))
    }

    @Test("migrate-data moves a node from SQLite to PostgreSQL; the node then runs on it", .enabled(if: PostgresTestDatabase.url != nil))
    func migrateDataToPostgres() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let created = try await FedNodeProcess.run(["user", "create", "alice", "--email", "alice@example.com", "--password", "correct horse",
                                                    "--data-dir", dataDir, "--domain", "photos.test"])
        #expect(created.status == 0, "\(created.stderr)")
        let url = try PostgresTestDatabase.fresh(migrated: false)
        let moved = try await FedNodeProcess.run(["migrate-data", "--from", "sqlite:\(dataDir)/fednode.sqlite", "--to", url])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stdout.contains("accounts: 1"))
        let again = try await FedNodeProcess.run(["migrate-data", "--from", "sqlite:\(dataDir)/fednode.sqlite", "--to", url])
        #expect(again.status != 0 && again.stderr.contains("not empty"), "a second copy is refused")
        // The node on PostgreSQL knows alice and its domain; a new account joins her there.
        let bob = try await FedNodeProcess.run(["user", "create", "bob", "--email", "bob@example.com", "--password", "correct horse",
                                                "--data-dir", dataDir, "--database", url])
        #expect(bob.status == 0, "\(bob.stderr)")
        #expect(bob.stdout.contains("https://photos.test/users/bob"))
        let listed = try await FedNodeProcess.run(["user", "list", "--data-dir", dataDir, "--database", url]).stdout
        #expect(listed.contains("alice") && listed.contains("bob"))
        #expect(try await FedNodeProcess.run(["migrate", "--database", "mysql://x@y/z"]).status != 0, "only PostgreSQL URLs")
    }

    @Test("backup, then restore brings the database back as it was; restore refuses while a node holds the database")
    func backupAndRestore() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let backup = dataDir + "-backup/node.sqlite"
        defer { try? FileManager.default.removeItem(atPath: dataDir + "-backup") }
        _ = try await FedNodeProcess.run(["user", "create", "alice", "--email", "alice@example.com", "--password", "correct horse", "--data-dir", dataDir])
        let saved = try await FedNodeProcess.run(["backup", "--to", backup, "--data-dir", dataDir])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stdout.contains("Backed up"))
        _ = try await FedNodeProcess.run(["user", "create", "bob", "--email", "bob@example.com", "--password", "correct horse", "--data-dir", dataDir])

        do {  // as a running node would: the lock is released at the end of this scope
            let lock = try DatabaseLock(databasePath: dataDir + "/fednode.sqlite")
            let refused = try await FedNodeProcess.run(["restore", "--from", backup, "--data-dir", dataDir])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("another fednode process"), "\(refused.stderr)")
            withExtendedLifetime(lock) {}
        }

        let restored = try await FedNodeProcess.run(["restore", "--from", backup, "--data-dir", dataDir])
        #expect(restored.status == 0, "\(restored.stderr)")
        let listed = try await FedNodeProcess.run(["user", "list", "--data-dir", dataDir]).stdout
        #expect(listed.contains("alice@example.com") && !listed.contains("bob@example.com"))
    }

    @Test("admin: domain blocks drop their queued deliveries, queues are listed per domain, deliveries retried now")
    func adminCommands() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        _ = try await FedNodeProcess.run(["user", "create", "alice", "--email", "alice@example.com", "--password", "correct horse", "--data-dir", dataDir])
        let database = try NodeDatabase(path: dataDir + "/fednode.sqlite")
        try await database.write { tx in
            guard let alice = try tx.accounts.findLocal(username: "alice") else { throw StorageError.notFound("alice") }
            _ = try tx.deliveries.enqueue(activityUri: "https://localhost:8080/activities/1", payload: Data("{}".utf8), accountId: alice.id,
                                          inboxes: ["https://good.example/inbox", "https://media.spam.example/inbox", "https://good.example/users/x/inbox"])
        }
        let queues = try await FedNodeProcess.run(["admin", "queues", "--data-dir", dataDir])
        #expect(queues.status == 0, "\(queues.stderr)")
        #expect(queues.stdout.contains("deliveries: 3 queued") && queues.stdout.contains("good.example\t2") && queues.stdout.contains("media.spam.example\t1"))

        let blocked = try await FedNodeProcess.run(["admin", "domain-block", "Spam.Example", "--data-dir", dataDir])
        #expect(blocked.stdout.contains("Blocked spam.example") && blocked.stdout.contains("dropped 1 queued"), "\(blocked.stdout)\(blocked.stderr)")
        #expect(try await FedNodeProcess.run(["admin", "domain-blocks", "--data-dir", dataDir]).stdout.hasPrefix("spam.example\t"))
        #expect(!(try await FedNodeProcess.run(["admin", "queues", "--data-dir", dataDir]).stdout.contains("spam.example")))

        let retried = try await FedNodeProcess.run(["admin", "retry-deliveries", "--to", "good.example", "--data-dir", dataDir])
        #expect(retried.stdout.contains("2 deliveries are due now"), "\(retried.stdout)\(retried.stderr)")
        #expect(try await FedNodeProcess.run(["admin", "domain-unblock", "spam.example", "--data-dir", dataDir]).status == 0)
        let again = try await FedNodeProcess.run(["admin", "domain-unblock", "spam.example", "--data-dir", dataDir])
        #expect(again.status != 0 && again.stderr.contains("not blocked"))
        let bad = try await FedNodeProcess.run(["admin", "domain-block", "not a domain", "--data-dir", dataDir])
        #expect(bad.status != 0 && bad.stderr.contains("not a domain name"))
        // The one host spelling the API and every check use: case, trailing dot and IDN.
        let spelled = try await FedNodeProcess.run(["admin", "domain-block", "Bücher.Example.", "--data-dir", dataDir])
        #expect(spelled.status == 0 && spelled.stdout.contains("Blocked xn--bcher-kva.example"), "\(spelled.stdout)\(spelled.stderr)")
        let doubled = try await FedNodeProcess.run(["admin", "domain-block", "spam..example", "--data-dir", dataDir])
        #expect(doubled.status != 0 && doubled.stderr.contains("not a domain name"))
    }
}

import Foundation
import Testing

/// `fednode user alias`: an account's aliases (`alsoKnownAs`) from the shell.
@Suite("fednode user alias")
struct CLIAliasTests {
    let dataDir = (NSTemporaryDirectory() as NSString).appendingPathComponent("fednode-cli-alias-\(UUID().uuidString)")

    @Test("adds a checked actor URI, lists the aliases, refuses a non-actor, and clears them")
    func aliases() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        for name in ["alice", "alice2"] {
            let created = try await FedNodeProcess.run(["user", "create", name, "--email", "\(name)@example.com", "--password", "correct horse",
                                                        "--data-dir", dataDir, "--domain", "photos.test"])
            #expect(created.status == 0, "\(created.stderr)")
        }
        let added = try await FedNodeProcess.run(["user", "alias", "alice2", "https://photos.test/users/alice", "--data-dir", dataDir])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("https://photos.test/users/alice"))
        let refused = try await FedNodeProcess.run(["user", "alias", "alice2", "not-an-actor", "--data-dir", dataDir])
        #expect(refused.status != 0 && refused.stderr.contains("not an actor"))
        let listed = try await FedNodeProcess.run(["user", "alias", "alice2", "--data-dir", dataDir])
        #expect(listed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "https://photos.test/users/alice")
        let cleared = try await FedNodeProcess.run(["user", "alias", "alice2", "--clear", "--data-dir", dataDir])
        #expect(cleared.status == 0 && cleared.stdout.contains("has no aliases"))
    }
}

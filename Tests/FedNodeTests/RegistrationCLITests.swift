import Foundation
import Storage
import Testing

/// The registration and federation-policy commands of the real `fednode` executable.
@Suite("fednode admin: invites and domain allows")
struct RegistrationCLITests {
    let dataDir = (NSTemporaryDirectory() as NSString).appendingPathComponent("fednode-cli-reg-\(UUID().uuidString)")

    @Test("admin invite prints a link that admin invites lists; bad bounds are refused")
    func invites() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let created = try await FedNodeProcess.run(["user", "create", "ada", "--email", "ada@example.com", "--password", "correct horse",
                                                    "--data-dir", dataDir, "--domain", "photos.test"])
        #expect(created.status == 0, "\(created.stderr)")
        let made = try await FedNodeProcess.run(["admin", "invite", "--max-uses", "3", "--expires-in", "48", "--by", "ada", "--data-dir", dataDir])
        #expect(made.status == 0, "\(made.stderr)")
        let url = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(url.hasPrefix("https://photos.test/invite/") && url.count == "https://photos.test/invite/".count + 10)
        let listed = try await FedNodeProcess.run(["admin", "invites", "--data-dir", dataDir]).stdout
        #expect(listed.contains(url) && listed.contains("0/3 uses") && listed.contains("usable"))
        #expect(try await FedNodeProcess.run(["admin", "invite", "--max-uses", "0", "--data-dir", dataDir]).status != 0)
        #expect(try await FedNodeProcess.run(["admin", "invite", "--by", "nobody", "--data-dir", dataDir]).status != 0)
    }

    @Test("domain-allow, domain-allows and domain-disallow; --federation-mode is remembered")
    func domainAllows() async throws {
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let allowed = try await FedNodeProcess.run(["admin", "domain-allow", "Friends.Example", "--data-dir", dataDir, "--domain", "photos.test"])
        #expect(allowed.status == 0 && allowed.stdout.contains("--federation-mode allowlist"), "\(allowed.stderr)")
        let switched = try await FedNodeProcess.run(["admin", "domain-allows", "--federation-mode", "allowlist", "--data-dir", dataDir])
        #expect(switched.stdout.contains("federation mode: allowlist") && switched.stdout.contains("friends.example"))
        let kept = try await FedNodeProcess.run(["admin", "domain-allows", "--data-dir", dataDir]).stdout
        #expect(kept.contains("federation mode: allowlist"), "the mode stays without the flag")
        #expect(try await FedNodeProcess.run(["admin", "domain-disallow", "friends.example", "--data-dir", dataDir]).stdout.contains("Disallowed"))
        #expect(try await FedNodeProcess.run(["admin", "domain-disallow", "friends.example", "--data-dir", dataDir]).status != 0)
        #expect(try await FedNodeProcess.run(["serve", "--federation-mode", "open", "--data-dir", dataDir]).stderr.contains("federation-mode"))
        #expect(try await FedNodeProcess.run(["serve", "--registrations", "maybe", "--data-dir", dataDir]).stderr.contains("registrations"))
    }
}

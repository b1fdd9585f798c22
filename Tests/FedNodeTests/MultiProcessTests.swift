@testable import Core
import FedNode
import Foundation
import Hummingbird
import Signatures
import Storage
import Synchronization
import Testing
import TestSupport

/// Three `fednode serve` processes on one PostgreSQL database act as one node: one of role
/// `all` and one of role `web` take signed inbox traffic and client-API requests (as a load
/// balancer would spread them), one of role `worker` only works. Every activity is processed
/// exactly once, every delivery sent once, and streaming clients of either serving process
/// see every event. Runs where `make test-postgres` provides PostgreSQL.
@Suite("Several processes, one node", .enabled(if: PostgresTestDatabase.url != nil))
struct MultiProcessTests {
    /// Remote actors that follow alice and like both of her posts.
    static let followers = 16

    @Test("processes on one database process each activity once and stream every event to clients of each")
    func twoProcesses() async throws {
        let url = try PostgresTestDatabase.fresh()
        let dataDir = (NSTemporaryDirectory() as NSString).appendingPathComponent("fednode-multi-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let ports = try (0..<3).map { _ in try LoopbackPort.free() }
        let (port1, port2) = (ports[0], ports[1])
        let domain = "127.0.0.1:\(port1)"
        try await Self.createAlice(dataDir: dataDir, database: url, domain: domain)

        let origin = try RemoteOrigin()
        try await origin.start()
        defer { Task { await origin.stop() } }
        // The processes serve the same node (same domain, database and media directory).
        let roles = ["all", "web", "worker"]
        let processes = try zip(ports, roles).map { port, role in
            try ChildProcess(FedNodeProcess.executable.path, [
                "serve", "--port", "\(port)", "--domain", domain, "--data-dir", dataDir, "--database", url, "--test-mode",
                "--log-level", "warning", "--role", role,
            ], environment: ProcessInfo.processInfo.environment.merging(["FEDNODE_PASSWORD_COST": "10"]) { $1 },
               stdout: .file(dataDir + "-\(port).log"), stderr: .file(dataDir + "-\(port).log"))
        }
        defer {
            for process in processes { process.terminate(); _ = process.waitForExit() }
            for port in ports { try? FileManager.default.removeItem(atPath: dataDir + "-\(port).log") }
        }
        let client = CurlHTTPClient(configuration: .init(userAgent: "multi-process-test", allowPrivateAddresses: true))
        defer { client.shutdown() }
        let all = ports.map { "http://127.0.0.1:\($0)" }
        do {
            for base in all { try await Self.waitUntilReady(base, client: client) }
        } catch {
            Issue.record("logs: \(ports.map { (try? String(contentsOfFile: dataDir + "-\($0).log", encoding: .utf8)) ?? "" })")
            throw error
        }
        // The worker serves health and metrics only; the other two serve everything.
        let bases = Array(all.prefix(2))
        #expect(try await client.execute(HTTPClientRequest(url: "\(all[2])/api/v1/instance")).status == 404)
        #expect(try await client.execute(HTTPClientRequest(url: "\(all[2])/healthz")).status == 200)
        #expect(try await client.execute(HTTPClientRequest(url: "\(bases[1])/api/v1/instance")).status == 200)

        // alice signs in through one process; her token works on both.
        let token = try await Self.token(base: bases[0], client: client)
        let streams = try [port1, port2].map { try EventStreamClient(port: $0, path: "/api/v1/streaming/user", token: token) }
        for stream in streams { try await stream.wait(for: "stream open") { $0.status == 200 } }

        // One post through each process.
        var posts: [String] = []
        for (index, base) in bases.enumerated() {
            let body = Array(try JSONSerialization.data(withJSONObject: ["status": "hello from process \(index + 1)"]))
            let response = try await client.execute(HTTPClientRequest(
                method: "POST", url: "\(base)/api/v1/statuses",
                headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")], body: body))
            #expect(response.status == 200)
            let status = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            posts.append(try #require(status["uri"] as? String))
        }

        // Each remote actor follows alice and likes both posts, its activities spread over both
        // processes in turn: its Like may reach the other process than its Follow did.
        let alice = "http://\(domain)/users/alice"
        var sent = 0
        for follower in 0..<Self.followers {
            let actor = origin.actor("r\(follower)")
            var activities: [[String: Any]] = [["type": "Follow", "id": "\(actor)/follows/1", "actor": actor, "object": alice]]
            for (index, post) in posts.enumerated() {
                activities.append(["type": "Like", "id": "\(actor)/likes/\(index)", "actor": actor, "object": post])
            }
            for activity in activities {
                let base = bases[sent % 2]
                let status = try await origin.deliver(activity, to: "\(base)/users/alice/inbox", authority: domain, client: client)
                #expect(status == 202, "\(activity["id"] ?? "")")
                sent += 1
            }
        }

        let expectedNotifications = Self.followers * (1 + posts.count)
        try await eventually("every activity was processed", within: 120) {
            let processed = try await Self.processedCount(all, client: client)
            return processed >= sent
        }
        // Nothing more arrives later: no activity was processed twice.
        try await Task.sleep(for: .seconds(2))
        #expect(try await Self.processedCount(all, client: client) == sent, "each activity processed exactly once, by one process")
        #expect(try await Self.processedCount([bases[1]], client: client) == 0, "the web process leaves the work to the others")

        let database = try NodeDatabase(url: #require(DatabaseURL(url)))
        let (notifications, queued, outcomes) = try await database.readSQL { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM notifications") ?? -1,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM inbox_queue") ?? -1,
             try String.fetchAll(db, sql: "SELECT DISTINCT outcome FROM seen_activities"))
        }
        #expect(notifications == expectedNotifications)
        #expect(queued == 0)
        #expect(outcomes == ["processed"])

        // Every follower got exactly one Accept, from whichever process sent it.
        try await eventually("every Follow was accepted", within: 90) { origin.accepts.count >= Self.followers }
        try await Task.sleep(for: .seconds(2))
        let accepts = origin.accepts
        #expect(accepts.count == Self.followers, "one Accept per Follow, not one per process")
        #expect(Set(accepts).count == Self.followers)

        // Both streaming clients, one per process, saw every notification and both posts.
        for (index, stream) in streams.enumerated() {
            try await stream.wait(for: "process \(index + 1)'s client sees every event", within: 60) { stream in
                Set(stream.events.filter { $0.event == "notification" }.map(\.data)).count >= expectedNotifications
                    && stream.events.filter { $0.event == "update" }.count >= posts.count
            }
            let ids = stream.events.filter { $0.event == "notification" }.compactMap { event in
                (try? JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any])?["id"] as? String
            }
            #expect(ids.count == expectedNotifications && Set(ids).count == expectedNotifications,
                    "process \(index + 1)'s client: every notification once")
        }
    }

    @Test("PostgreSQL restarting mid-burst: every activity acknowledged is processed once it is back, without restarting the node")
    func serverRestart() async throws {
        // A cluster of its own: restarting the shared one would cut the other tests' connections.
        let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/pg-cluster").path
        let clusterDir = (NSTemporaryDirectory() as NSString).appendingPathComponent("fednode-restart-pg-\(UUID().uuidString.prefix(8))")
        let started = try ChildProcess.run(scripts, ["start", clusterDir])
        try #require(started.status == 0, "\(started.stderr)")
        defer { _ = try? ChildProcess.run(scripts, ["stop", clusterDir]) }
        let url = started.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let dataDir = clusterDir + "-data"
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let port = try LoopbackPort.free()
        let domain = "127.0.0.1:\(port)"
        try await Self.createAlice(dataDir: dataDir, database: url, domain: domain)
        let origin = try RemoteOrigin()
        try await origin.start()
        defer { Task { await origin.stop() } }
        let log = dataDir + ".log"
        let process = try ChildProcess(FedNodeProcess.executable.path, [
            "serve", "--port", "\(port)", "--domain", domain, "--data-dir", dataDir, "--database", url, "--test-mode", "--log-level", "warning",
        ], environment: ProcessInfo.processInfo.environment.merging(["FEDNODE_PASSWORD_COST": "10"]) { $1 }, stdout: .file(log), stderr: .file(log))
        defer {
            process.terminate()
            _ = process.waitForExit()
            try? FileManager.default.removeItem(atPath: log)
        }
        let client = CurlHTTPClient(configuration: .init(userAgent: "restart-test", allowPrivateAddresses: true))
        defer { client.shutdown() }
        let base = "http://127.0.0.1:\(port)"
        try await Self.waitUntilReady(base, client: client)

        // Follows sent one after another while the server restarts: those answered 202 are
        // promised; the others a real sender would send again.
        let alice = "http://\(domain)/users/alice"
        let restarted = RestartOutcome()
        var acknowledged: [String] = []
        var refused = 0
        var sent = 0
        var sentSinceRestart = 0
        while sent < 1_000, sentSinceRestart < 40 {
            if sent == 20 {
                Task.detached { restarted.set((try? ChildProcess.run(scripts, ["restart", clusterDir]).status) ?? -1) }
            }
            let actor = origin.actor("f\(sent)")
            let id = "\(actor)/follows/1"
            let status = (try? await origin.deliver(["type": "Follow", "id": id, "actor": actor, "object": alice],
                                                    to: "\(base)/users/alice/inbox", authority: domain, client: client)) ?? 0
            if status == 202 { acknowledged.append(id) } else { refused += 1 }
            sent += 1
            if restarted.status != nil { sentSinceRestart += 1 }
        }
        #expect(restarted.status == 0, "the cluster restarted")
        #expect(acknowledged.count >= 40, "the node took activities again after the restart (\(refused) of \(sent) refused)")

        // Back on its own: everything acknowledged is processed, once, and the node answers.
        let database = try NodeDatabase(url: #require(DatabaseURL(url)))
        try await eventually("every acknowledged Follow was processed", within: 120) {
            let processed = Set((try? await database.readSQL { db in
                try String.fetchAll(db, sql: "SELECT uri FROM seen_activities WHERE outcome = 'processed'")
            }) ?? [])
            return acknowledged.allSatisfy(processed.contains)
        }
        let follows = try await database.readSQL { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM follows") ?? -1 }
        #expect(follows >= acknowledged.count)
        #expect(try await client.execute(HTTPClientRequest(url: "\(base)/readyz")).status == 200)
    }

    /// Creates the local account alice (password "correct horse") with the command line.
    private static func createAlice(dataDir: String, database url: String, domain: String) async throws {
        let created = try await FedNodeProcess.run(["user", "create", "alice", "--email", "alice@example.test", "--password", "correct horse",
                                                    "--data-dir", dataDir, "--database", url, "--domain", domain, "--test-mode"])
        #expect(created.status == 0, "\(created.stderr)")
    }

    /// Waits until `base/readyz` answers 200.
    private static func waitUntilReady(_ base: String, client: CurlHTTPClient) async throws {
        try await eventually("\(base) is ready", within: 90) {
            (try? await client.execute(HTTPClientRequest(url: "\(base)/readyz")))?.status == 200
        }
    }

    /// An app, then a token for alice by password.
    private static func token(base: String, client: CurlHTTPClient) async throws -> String {
        let form: ([(String, String)]) -> [UInt8] = { pairs in
            Array(pairs.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&").utf8)
        }
        let formHeaders = [("Content-Type", "application/x-www-form-urlencoded")]
        let app = try await client.execute(HTTPClientRequest(method: "POST", url: "\(base)/api/v1/apps", headers: formHeaders, body: form([
            ("client_name", "multi"), ("redirect_uris", "urn:ietf:wg:oauth:2.0:oob"), ("scopes", "read write"),
        ])))
        let credentials = try #require(try JSONSerialization.jsonObject(with: Data(app.body)) as? [String: Any])
        let token = try await client.execute(HTTPClientRequest(method: "POST", url: "\(base)/oauth/token", headers: formHeaders, body: form([
            ("grant_type", "password"), ("username", "alice@example.test"), ("password", "correct horse"), ("scope", "read write"),
            ("client_id", credentials["client_id"] as? String ?? ""), ("client_secret", credentials["client_secret"] as? String ?? ""),
        ])))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(token.body)) as? [String: Any])
        return try #require(json["access_token"] as? String, "\(json)")
    }

    /// Activities processed by both processes together, from their metrics.
    private static func processedCount(_ bases: [String], client: CurlHTTPClient) async throws -> Int {
        var total = 0
        for base in bases {
            let metrics = String(decoding: try await client.execute(HTTPClientRequest(url: "\(base)/metrics")).body, as: UTF8.self)
            for line in metrics.split(separator: "\n") where line.hasPrefix("fednode_inbox_processed_total{") && line.contains("outcome=\"processed\"") {
                total += Int(Double(line.split(separator: " ").last ?? "") ?? 0)
            }
        }
        return total
    }
}

/// A remote server on loopback with actors `/users/NAME` (one RSA key for all), which signs
/// the activities the test sends in their name and records what the node delivers to it.
private final class RemoteOrigin: Sendable {
    let port: Int
    let key: RSAPrivateKey
    private let received = Mutex<[(path: String, type: String, object: String)]>([])
    private let task = Mutex<Task<Void, any Error>?>(nil)

    var base: String { "http://127.0.0.1:\(port)" }

    /// The `object` of each `Accept` delivered, in order.
    var accepts: [String] { received.withLock { $0.filter { $0.type == "Accept" }.map(\.object) } }

    init() throws {
        port = try LoopbackPort.free()
        key = try RSAPrivateKey.generate()
    }

    func actor(_ name: String) -> String { "\(base)/users/\(name)" }

    func start() async throws {
        let router = Router()
        router.get("/users/:name") { [self] _, context -> Response in
            let id = actor(try context.parameters.require("name"))
            let document: [String: Any] = [
                "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
                "id": id, "type": "Person", "preferredUsername": id.split(separator: "/").last.map(String.init) ?? "",
                "inbox": "\(id)/inbox", "outbox": "\(id)/outbox", "followers": "\(id)/followers",
                "endpoints": ["sharedInbox": "\(base)/inbox"],
                "publicKey": ["id": "\(id)#main-key", "owner": id, "publicKeyPem": key.publicKey.spkiPEM],
            ]
            let body = try JSONSerialization.data(withJSONObject: document, options: [.withoutEscapingSlashes])
            return Response(status: .ok, headers: [.contentType: "application/activity+json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.post("**") { [self] request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let json = (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]) ?? [:]
            let object = (json["object"] as? [String: Any])?["id"] as? String ?? json["object"] as? String ?? ""
            received.withLock { $0.append((request.uri.path, json["type"] as? String ?? "", object)) }
            return Response(status: .accepted)
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        task.withLock { $0 = Task { try await app.run() } }
        let client = CurlHTTPClient(configuration: .init(userAgent: "test", allowPrivateAddresses: true))
        defer { client.shutdown() }
        try await eventually("the remote origin serves") {
            (try? await client.execute(HTTPClientRequest(url: actor("probe"))))?.status == 200
        }
    }

    func stop() async {
        let running = task.withLock { $0 }
        running?.cancel()
        _ = await running?.result
    }

    /// Posts `activity` to `inbox`, signed by its actor for the node's `authority` (the Host
    /// a load balancer in front of both processes would pass on).
    func deliver(_ activity: [String: Any], to inbox: String, authority: String, client: CurlHTTPClient) async throws -> Int {
        var document = activity
        document["@context"] = "https://www.w3.org/ns/activitystreams"
        let body = Array(try JSONSerialization.data(withJSONObject: document, options: [.withoutEscapingSlashes]))
        let path = URLComponents(string: inbox)?.path ?? "/inbox"
        var request = SignableRequest(method: "POST", path: path, authority: authority, scheme: "http",
                                      headers: [("Content-Type", "application/activity+json")], body: body)
        try RequestSigner(keyId: "\(activity["actor"] as? String ?? "")#main-key", privateKey: key).sign(&request)
        return try await client.execute(HTTPClientRequest(method: "POST", url: inbox, headers: request.headers, body: request.body)).status
    }
}

/// The exit status of a restart running beside the test's requests, once it ended.
private final class RestartOutcome: Sendable {
    private let value = Mutex<Int32?>(nil)
    var status: Int32? { value.withLock { $0 } }
    func set(_ status: Int32) { value.withLock { $0 = status } }
}

/// Polls `condition` every 100 ms until it holds, failing after `seconds`.
private func eventually(_ what: String, within seconds: Double = 30, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(100))
    }
    throw StreamingTestTimeout(what: what)
}

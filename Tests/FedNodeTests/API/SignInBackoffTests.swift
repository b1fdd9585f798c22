@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Synchronization
import Testing
@testable import FedNode

/// The per-account back-off of failed sign-ins, counted in the node's real database with a
/// clock the test moves, and the trusted browsers that get past it, through the router.
@Suite("Sign-in back-off and trusted browsers")
struct SignInBackoffTests {
    /// A clock that only moves when told (whole seconds: the database keeps milliseconds).
    final class Clock: Sendable {
        private let time = Mutex(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    static func counter(_ t: TestNode, _ clock: Clock, _ backoff: SignInBackoff = SignInBackoff()) -> FailedLogins {
        FailedLogins(database: t.node.database, backoff: backoff, logger: TestNode.logger, now: { clock.now })
    }

    @Test("no lock before the fifth failure, then 1 minute doubling with each failure up to 1 hour")
    func schedule() {
        let backoff = SignInBackoff()
        #expect((1...4).map(backoff.lockout(afterFailures:)) == [nil, nil, nil, nil])
        #expect((5...12).map(backoff.lockout(afterFailures:)) == [60, 120, 240, 480, 960, 1920, 3600, 3600])
        #expect(backoff.lockout(afterFailures: 10_000) == 3600)
    }

    @Test("each failure after a lock ends doubles the next lock, up to the cap; a quiet day forgets them")
    func doublingAndCap() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let clock = Clock(), logins = Self.counter(t, clock)
        for _ in 1...5 { #expect(await logins.begin("Mallory.Target@example.test", from: "198.51.100.1") == .open) }
        var locks: [TimeInterval] = []
        for attempt in 0..<8 {
            guard case .locked(let until) = await logins.begin("mallory.target@example.test ", from: "198.51.100.2") else {
                Issue.record("not locked after failure \(5 + attempt)"); return
            }
            let wait = until.timeIntervalSince(clock.now)
            locks.append(wait)
            #expect(logins.refusal(until: until).headers[.retryAfter] == String(Int(wait)))
            // Refused while locked: nothing counted, the lock stays as it was.
            #expect(await logins.begin("mallory.target@example.test", from: "198.51.100.3") == .locked(until: until))
            clock.advance(wait)
            #expect(await logins.begin("mallory.target@example.test", from: "198.51.100.4") == .open, "the lock ends on time")
        }
        #expect(locks == [60, 120, 240, 480, 960, 1920, 3600, 3600])
        let key = FailedLogins.key("mallory.target@example.test")
        #expect(try t.node.database.readBlocking { try $0.signInFailures.find(key) }?.failures == 13)

        clock.advance(86_400)
        #expect(await logins.begin("mallory.target@example.test", from: "198.51.100.5") == .open)
        let forgotten = try #require(try t.node.database.readBlocking { try $0.signInFailures.find(key) })
        #expect(forgotten.failures == 1 && forgotten.lockedUntil == nil && forgotten.lastAddress == "198.51.100.5")
    }

    @Test("attempts arriving at once cannot all slip in before the lock")
    func concurrentAttempts() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let logins = Self.counter(t, Clock())
        let turns = await withTaskGroup(of: FailedLogins.Turn.self) { group in
            for index in 1...30 { group.addTask { await logins.begin("bob@example.test", from: "203.0.113.\(index)") } }
            return await group.reduce(into: [FailedLogins.Turn]()) { $0.append($1) }
        }
        #expect(turns.filter { $0 == .open }.count == 5, "exactly the threshold's attempts check a password")
    }

    @Test("past a lock a trusted browser signs in; its wrong passwords lengthen the lock and, after five, end its trust")
    func trustedBrowserPastLock() async throws {
        // Ten minutes at first, so the lock outlasts the test however slow the machine.
        let t = try TestNode.make { $0.rateLimits.failedSignIns = SignInBackoff(firstLockout: 600) }
        defer { t.remove() }
        _ = try await t.user("alice")
        try await t.withClient { client in
            typealias Jar = WebSessionTests.Jar
            func login(_ jar: inout Jar, _ password: String, from address: String) async throws -> TestResponse {
                _ = try await WebSessionTests.get(client, "/login", jar: &jar)
                var headers = jar.header
                headers[.contentType] = "application/x-www-form-urlencoded"
                headers[.init("X-Forwarded-For")!] = address
                let fields = [("email", "alice@example.test"), ("password", password), ("csrf", jar.cookies[CSRF.cookieName] ?? "")]
                let response = try await client.execute(uri: "/login", method: .post, headers: headers, body: ByteBuffer(string: formEncoded(fields)))
                jar.take(response)
                return response
            }
            var home = Jar()
            let first = try await login(&home, "correct horse battery", from: "192.0.2.10")
            #expect(first.status == .seeOther)
            let cookie = try #require(first.headers[values: .setCookie].first { $0.hasPrefix(DeviceTrust.cookieName + "=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Max-Age=7776000") && !cookie.contains("Secure"))
            home.cookies[WebSession.cookieName] = nil
            for index in 1...5 {
                var stranger = Jar()
                #expect(try await login(&stranger, "guess \(index)", from: "198.51.100.\(index)").status == .unauthorized)
            }
            var fresh = Jar()
            #expect(try await login(&fresh, "correct horse battery", from: "192.0.2.10").status == .tooManyRequests,
                    "the same address without the browser's cookie is a stranger")
            let before = try #require(home.cookies[DeviceTrust.cookieName])
            #expect(try await login(&home, "correct horse battery", from: "192.0.2.99").status == .seeOther)
            #expect(home.cookies[DeviceTrust.cookieName] != before, "a new device token at each sign-in")
            var replay = Jar(cookies: [DeviceTrust.cookieName: before])
            #expect(try await login(&replay, "correct horse battery", from: "192.0.2.98").status == .tooManyRequests, "the old token is spent")

            let lockBefore = try await lock(t)
            home.cookies[WebSession.cookieName] = nil
            for index in 1...5 {
                #expect(try await login(&home, "typo \(index)", from: "192.0.2.99").status == .unauthorized)
            }
            #expect(try await lock(t) > lockBefore, "a trusted browser's wrong passwords lengthen the lock")
            #expect(try await login(&home, "correct horse battery", from: "192.0.2.99").status == .tooManyRequests,
                    "after five wrong passwords the browser is a stranger again")
        }
    }

    @Test("a password reset forgets every trusted browser of the account")
    func resetForgetsBrowsers() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let alice = try await t.user("alice").account
        try await t.withClient { client in
            _ = try await WebSessionTests.signIn(client, email: "alice@example.test", password: "correct horse battery")
        }
        #expect(try t.node.database.readBlocking { try $0.trustedDevices.count(of: alice.id) } == 1)
        let secret = TokenSecret.new()
        try await t.node.database.write { db in
            try db.accountTokens.issue(hash: TokenSecret.hash(secret), account: alice.id, purpose: .resetPassword,
                                       email: "alice@example.test", expiresAt: Date().addingTimeInterval(600))
        }
        _ = try await AccountMailService(node: t.node).resetPassword(secret: secret, to: "a new password here")
        #expect(try t.node.database.readBlocking { try $0.trustedDevices.count(of: alice.id) } == 0)
    }

    private func lock(_ t: TestNode) async throws -> Date {
        let key = FailedLogins.key("alice@example.test")
        return try #require(try await t.node.database.read { try $0.signInFailures.find(key) }?.lockedUntil)
    }
}

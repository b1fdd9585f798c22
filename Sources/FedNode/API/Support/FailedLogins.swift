import Foundation
import HTTPTypes
import Storage

/// Failed sign-ins per account (keyed by the email typed, lowercased), whatever address they
/// come from. Per-address limits alone do not stop a password being guessed from many
/// addresses, or from behind a proxy where everyone shares one; once an account has had
/// `RateLimits.failedLoginsPerAccount` failures in a window, its sign-ins answer 429 until the
/// window ends, without checking the password (which also spares the scrypt work).
actor FailedLogins {
    private var windows: [String: (start: Date, failures: Int)] = [:]
    private let now: @Sendable () -> Date
    /// Where failures are counted when several processes serve the node; `nil`: in memory.
    private let shared: NodeDatabase?

    /// A counter reading time from `now`, counting in memory or in `shared`.
    init(now: @escaping @Sendable () -> Date = Date.init, shared: NodeDatabase? = nil) {
        self.now = now
        self.shared = shared
    }

    /// Refuses a sign-in to `email` while its window of failures is full.
    /// - Throws: `RateLimitExceeded` (429 with `X-RateLimit-*` headers).
    func check(_ email: String, rule: RateLimiter.Rule) async throws(RateLimitExceeded) {
        let current = now()
        let key = Self.key(email)
        var entry = windows[key]
        if let shared {
            // Unreadable: the in-memory count still stands (a limiter must not take sign-in down).
            do {
                entry = try await shared.read { try $0.coordination.window(Self.sharedKey(key), length: rule.window, at: current) }
                    .map { ($0.startedAt, $0.hits) }
            } catch {}
        }
        guard let entry, current.timeIntervalSince(entry.start) < rule.window, entry.failures >= rule.limit else { return }
        throw RateLimitExceeded(headers: [
            .rateLimitLimit: String(rule.limit),
            .rateLimitRemaining: "0",
            .rateLimitReset: EntityRenderer.timestamp(entry.start.addingTimeInterval(rule.window)),
        ])
    }

    /// Counts a failed sign-in to `email`.
    func failed(_ email: String, rule: RateLimiter.Rule) async {
        let current = now()
        let key = Self.key(email)
        if let shared, (try? await shared.writeBookkeeping({ try $0.coordination.countHit(Self.sharedKey(key), window: rule.window, at: current) })) != nil {
            return
        }
        var entry = windows[key] ?? (current, 0)
        if current.timeIntervalSince(entry.start) >= rule.window { entry = (current, 0) }
        entry.failures += 1
        windows[key] = entry
        if windows.count > 50_000 {
            windows = windows.filter { current.timeIntervalSince($0.value.start) < rule.window }
        }
    }

    /// A successful sign-in clears the account's failures.
    func succeeded(_ email: String) async {
        let key = Self.key(email)
        windows[key] = nil
        if let shared { _ = try? await shared.writeBookkeeping { try $0.coordination.clearWindow(Self.sharedKey(key)) } }
    }

    private static func sharedKey(_ key: String) -> String { "failed-login:\(key)" }

    private static func key(_ email: String) -> String {
        String(email.trimmingCharacters(in: .whitespaces).lowercased().prefix(320))
    }
}

extension Node {
    /// Signs in by email and password, refusing accounts with too many recent failures.
    /// - Returns: The account, or `nil` for a wrong email or password.
    /// - Throws: `RateLimitExceeded` while the account's failures window is full;
    ///   `NodeError.forbidden` for an account pending approval; `.internal` when credentials
    ///   cannot be read.
    func signIn(email: String, password: String) async throws -> Account? {
        let rule = configuration.rateLimits.failedLoginsPerAccount
        try await failedLogins.check(email, rule: rule)
        guard let account = try await accounts.authenticateOffloaded(email: email, password: password) else {
            await failedLogins.failed(email, rule: rule)
            return nil
        }
        await failedLogins.succeeded(email)
        try await RegistrationService(node: self).refusePending(account)
        return account
    }
}

import Foundation
import Logging
import Storage

/// Failed sign-ins per account (keyed by the email typed, lowercased), whatever address they
/// come from, with an exponential back-off (`SignInBackoff`). Per-address limits alone do not
/// stop a password being guessed from many addresses, or from behind a proxy where everyone
/// shares one. Counted in the database (`sign_in_failures`), so every process of a node sees
/// the same count and moderators can read it.
///
/// Each attempt counts as a failure before its password is checked (a success then clears it),
/// so many attempts at once cannot all slip in before the lock: the one that reaches the
/// threshold locks the account for the others. While locked, attempts are refused without
/// checking the password (which also spares the scrypt work) and are not counted, except those
/// from a trusted browser (`DeviceTrust`), whose wrong passwords count and lengthen the lock.
package struct FailedLogins: Sendable {
    /// Whether an attempt may check its password.
    package enum Turn: Sendable, Equatable {
        /// It may; it counts as a failure until `succeeded` clears the count.
        case open
        /// Sign-ins to the account are locked until then.
        case locked(until: Date)
    }

    /// Where failures are counted.
    package let database: NodeDatabase
    /// How failures lock the account.
    package let backoff: SignInBackoff
    /// Where a count that cannot be written is reported.
    package let logger: Logger
    /// The clock (tests move it).
    package let now: @Sendable () -> Date

    /// A counter in `database`, reading time from `now`.
    package init(database: NodeDatabase, backoff: SignInBackoff, logger: Logger, now: @escaping @Sendable () -> Date = Date.init) {
        self.database = database
        self.backoff = backoff
        self.logger = logger
        self.now = now
    }

    /// Takes a turn for a sign-in to `email` from `address`: counts it as a failure and locks
    /// the account when that reaches the back-off, unless the account is locked already.
    /// A count that cannot be written lets the attempt through (a limiter must not take
    /// sign-in down), with a warning.
    package func begin(_ email: String, from address: String) async -> Turn {
        let current = now(), key = Self.key(email), backoff = backoff
        do {
            return try await database.writeBookkeeping { db -> Turn in
                guard let failures = try db.signInFailures.count(key, from: address, at: current,
                                                                 forgetBefore: current.addingTimeInterval(-backoff.forgetAfter), unlessLocked: true)
                else { return .locked(until: try db.signInFailures.find(key)?.lockedUntil ?? current) }
                if let lock = backoff.lockout(afterFailures: failures) { try db.signInFailures.lock(key, until: current.addingTimeInterval(lock)) }
                return .open
            }
        } catch {
            logger.warning("failed sign-ins not counted", metadata: ["error": "\(error)"])
            return .open
        }
    }

    /// Counts a wrong password sent to a locked account by a trusted browser: the lock grows
    /// as if the account had not been locked.
    package func failedPastLock(_ email: String, from address: String) async {
        let current = now(), key = Self.key(email), backoff = backoff
        do {
            try await database.writeBookkeeping { db in
                let failures = try db.signInFailures.count(key, from: address, at: current,
                                                           forgetBefore: current.addingTimeInterval(-backoff.forgetAfter), unlessLocked: false) ?? 1
                if let lock = backoff.lockout(afterFailures: failures) { try db.signInFailures.lock(key, until: current.addingTimeInterval(lock)) }
            }
        } catch {
            logger.warning("failed sign-in not counted", metadata: ["error": "\(error)"])
        }
    }

    /// A successful sign-in through an open turn clears the account's failures (one through a
    /// lock does not: the strangers' guesses keep their back-off).
    package func succeeded(_ email: String) async {
        let key = Self.key(email)
        _ = try? await database.writeBookkeeping { db in try db.signInFailures.clear(key) }
    }

    /// The 429 answering a sign-in while the account is locked until `until`: `Retry-After` in
    /// seconds and `X-RateLimit-Reset` at the lock's end.
    package func refusal(until: Date) -> RateLimitExceeded {
        let seconds = max(1, Int(until.timeIntervalSince(now()).rounded(.up)))
        return RateLimitExceeded(window: RateLimitWindow(limit: backoff.threshold, remaining: 0, reset: until, retryAfter: seconds))
    }

    /// The key failures of `email` are counted under: trimmed, lowercased, at most 320 characters.
    package static func key(_ email: String) -> String {
        String(email.trimmingCharacters(in: .whitespaces).lowercased().prefix(320))
    }
}

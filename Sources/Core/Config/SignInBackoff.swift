import Foundation

/// How failed sign-ins to one account lock it, from any address: the first `threshold - 1`
/// failures in a row cost nothing, the `threshold`-th locks sign-ins for `firstLockout`, and
/// each further one doubles the lock up to `longestLockout`. Failures are forgotten after a
/// successful sign-in or `forgetAfter` without one. While locked, only a browser the account
/// signed in from before (a trusted device) or an emailed sign-in link gets in.
public struct SignInBackoff: Sendable, Equatable {
    /// Failures in a row before the first lock.
    public var threshold: Int
    /// The first lock, in seconds.
    public var firstLockout: TimeInterval
    /// The longest lock, in seconds.
    public var longestLockout: TimeInterval
    /// How long after the last failure the count starts again, in seconds.
    public var forgetAfter: TimeInterval

    /// A back-off; by default 5 failures, then 1 minute doubling up to 1 hour, forgotten after a day.
    public init(threshold: Int = 5, firstLockout: TimeInterval = 60, longestLockout: TimeInterval = 3600,
                forgetAfter: TimeInterval = 86_400) {
        self.threshold = threshold
        self.firstLockout = firstLockout
        self.longestLockout = longestLockout
        self.forgetAfter = forgetAfter
    }

    /// How long sign-ins stay locked after the `failures`-th failure in a row, `nil` for none.
    public func lockout(afterFailures failures: Int) -> TimeInterval? {
        guard failures >= threshold else { return nil }
        // Past 2^40 any real lock is long capped; the bound keeps the power finite.
        let doublings = Double(min(failures - threshold, 40))
        return min(firstLockout * pow(2, doublings), longestLockout)
    }
}

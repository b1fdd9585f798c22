import Foundation

/// The failed sign-ins counted for one typed email (`sign_in_failures`).
public struct SignInFailure: Sendable, Equatable {
    /// The email typed, trimmed and lowercased (an account's or not: unknown ones count too,
    /// so a lock says nothing about which addresses have accounts).
    public var key: String
    /// Failures in a row, since the last success or since a quiet spell.
    public var failures: Int
    /// When the last one happened.
    public var lastFailedAt: Date
    /// The client address it came from.
    public var lastAddress: String
    /// Until when sign-ins are refused, if they are (or were) locked.
    public var lockedUntil: Date?

    /// A row as read.
    public init(key: String, failures: Int, lastFailedAt: Date, lastAddress: String, lockedUntil: Date?) {
        self.key = key
        self.failures = failures
        self.lastFailedAt = lastFailedAt
        self.lastAddress = lastAddress
        self.lockedUntil = lockedUntil
    }
}

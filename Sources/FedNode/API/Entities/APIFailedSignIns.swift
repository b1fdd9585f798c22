import Core

/// FedNode's addition to `Admin::Account` (`failed_sign_ins`): the failed sign-ins counted for
/// the account's email now, so a moderator can tell a person who cannot sign in that someone
/// is guessing their password, from where, and until when strangers are refused.
public struct APIFailedSignIns: Codable, Sendable, Equatable {
    /// Failures in a row since the last success (forgotten after a quiet day).
    public var count: Int
    /// When the last one happened.
    public var lastFailedAt: String
    /// The client address of the last one.
    public var lastIp: String
    /// Until when sign-ins without a trusted browser are refused; `nil` when they are not now.
    public var lockedUntil: String?
}

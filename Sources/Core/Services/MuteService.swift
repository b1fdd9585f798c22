import Foundation
import Storage

/// Muting accounts: their posts leave the muter's timelines, and optionally their
/// notifications too. Local only, never federated.
package struct MuteService: Sendable {
    /// The longest mute with an end, in seconds: a hundred years.
    package static let maxDuration = 100 * 365 * 24 * 3600
    /// The refusal of a duration that is not a number of seconds in range.
    package static let invalidDuration = "Validation failed: Duration must be a number of seconds from 0 to \(maxDuration)"

    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Mutes `target` for `muter`, replacing an earlier mute of them.
    /// - Parameters:
    ///   - hideNotifications: Whether their notifications are hidden too.
    ///   - duration: Seconds until the mute ends; `nil` or 0 for no end.
    /// - Throws: `NodeError.validation` for muting oneself or a duration out of range.
    package func mute(_ target: Account, by muter: Account, hideNotifications: Bool, duration: Int?, now: Date = Date()) async throws(NodeError) {
        guard target.id != muter.id else { throw .validation("Validation failed: You cannot mute yourself") }
        if let duration, !(0...Self.maxDuration).contains(duration) { throw .validation(Self.invalidDuration) }
        let expiresAt = duration.flatMap { $0 > 0 ? now.addingTimeInterval(TimeInterval($0)) : nil }
        let mute = Mute(accountId: muter.id, targetAccountId: target.id, hideNotifications: hideNotifications, expiresAt: expiresAt)
        try await node.write("mute") { db in try db.mutes.save(mute) }
    }

    /// Lifts `muter`'s mute of `target`, if any.
    package func unmute(_ target: Account, by muter: Account) async throws(NodeError) {
        try await node.write("mute") { db in try db.mutes.remove(account: muter.id, target: target.id) }
    }
}

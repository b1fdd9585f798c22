import Foundation
import GRDB

/// `accountId` mutes `targetAccountId`: its posts and boosts leave the muter's timelines, and
/// its notifications too when `hideNotifications`. Local only, never federated.
public struct Mute: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "mutes"
    /// Snowflake id: the mutes list is ordered and paged by it.
    public var id: Int64
    /// Who mutes.
    public var accountId: Int64
    /// Who is muted.
    public var targetAccountId: Int64
    /// Whether notifications from the muted account are hidden as well.
    public var hideNotifications: Bool
    /// When the mute ends by itself; `nil` for a mute that lasts until lifted.
    public var expiresAt: Date?
    /// When the mute was made (or last changed).
    public var createdAt: Date

    /// Creates a mute row.
    public init(id: Int64 = Snowflake.next(), accountId: Int64, targetAccountId: Int64, hideNotifications: Bool,
                expiresAt: Date?, createdAt: Date = Date()) {
        self.id = id
        self.accountId = accountId
        self.targetAccountId = targetAccountId
        self.hideNotifications = hideNotifications
        self.expiresAt = expiresAt
        self.createdAt = createdAt
    }

    /// Whether the mute still applies at `now`.
    public func isActive(at now: Date = Date()) -> Bool { expiresAt.map { $0 > now } ?? true }
}

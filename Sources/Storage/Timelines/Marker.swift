import Foundation
import GRDB

/// Where `accountId` stopped reading a timeline (`home` or `notifications`), saved by apps to
/// sync the reading position across devices (Mastodon's markers).
public struct Marker: Record, Equatable {
    /// Table name.
    public static let databaseTableName = "markers"
    /// The reader.
    public var accountId: Int64
    /// `home` or `notifications`.
    public var timeline: String
    /// The id of the last item read, as the app sent it.
    public var lastReadId: String
    /// Raised by one at every save (optimistic locking for apps).
    public var version: Int
    /// When it was last saved.
    public var updatedAt: Date

    /// Creates a marker row.
    public init(accountId: Int64, timeline: String, lastReadId: String, version: Int = 1, updatedAt: Date = Date()) {
        self.accountId = accountId
        self.timeline = timeline
        self.lastReadId = lastReadId
        self.version = version
        self.updatedAt = updatedAt
    }
}

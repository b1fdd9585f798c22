import Foundation
import GRDB

/// Who may see a post, with Mastodon's names.
public enum Visibility: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
    /// Everyone, listed on public timelines.
    case `public`
    /// Everyone with the link, kept off public timelines.
    case unlisted
    /// Followers only.
    case `private`
    /// Mentioned people only.
    case direct
}

/// A photo post, a comment (a reply), or a boost (`reblogOfId` set), local or remote.
public struct Post: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "posts"
    /// Snowflake id (remote posts get one made from their `published` time).
    public var id: Int64
    /// ActivityPub id of the Note (or of the Announce, for boosts).
    public var uri: String
    /// Web page of the post.
    public var url: String?
    /// Author.
    public var accountId: Int64
    /// Whether the author is local.
    public var local: Bool
    /// Parent post, when it is known here; makes this a comment.
    public var inReplyToId: Int64?
    /// Parent post's id as the author addressed it.
    public var inReplyToUri: String?
    /// Parent post's author, when known.
    public var inReplyToAccountId: Int64?
    /// The boosted post, for boosts.
    public var reblogOfId: Int64?
    /// Caption as HTML (sanitised for remote posts).
    public var content: String = ""
    /// Caption as typed (local posts).
    public var text: String = ""
    /// Content warning.
    public var spoilerText: String = ""
    /// Whether media is hidden behind a warning.
    public var sensitive: Bool = false
    /// Audience.
    public var visibility: Visibility = .public
    /// ISO 639 language code.
    public var language: String?
    /// Publication time.
    public var createdAt: Date
    /// Last edit time; `nil` when never edited.
    public var editedAt: Date?
    /// Last change to the row.
    public var updatedAt: Date

    /// Creates a post row.
    public init(id: Int64 = Snowflake.next(), uri: String, accountId: Int64, local: Bool, createdAt: Date = Date()) {
        self.id = id
        self.uri = uri
        self.accountId = accountId
        self.local = local
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }
}

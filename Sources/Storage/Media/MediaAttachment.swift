import Foundation
import GRDB

/// A photo attached to a post (or uploaded and not yet attached).
public struct MediaAttachment: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "media_attachments"
    /// Snowflake id.
    public var id: Int64
    /// Uploader, or the remote post's author.
    public var accountId: Int64
    /// The post it belongs to; `nil` until attached.
    public var postId: Int64?
    /// Order within the post, from 0.
    public var position: Int = 0
    /// Mastodon media type: image, gifv, video, audio, unknown.
    public var type: String = "image"
    /// MIME type of the stored or remote file.
    public var contentType: String?
    /// Path of the processed file under the data directory.
    public var filePath: String?
    /// Path of the thumbnail under the data directory.
    public var thumbnailPath: String?
    /// The origin's URL, for remote media.
    public var remoteUrl: String?
    /// The origin's preview URL, for remote media that has one.
    public var previewRemoteUrl: String?
    /// Thumbnail width in pixels.
    public var thumbnailWidth: Int?
    /// Thumbnail height in pixels.
    public var thumbnailHeight: Int?
    /// Alt text.
    public var description: String = ""
    /// Focal point x in -1...1.
    public var focusX: Double?
    /// Focal point y in -1...1.
    public var focusY: Double?
    /// Width in pixels.
    public var width: Int?
    /// Height in pixels.
    public var height: Int?
    /// BlurHash placeholder.
    public var blurhash: String?
    /// Size of the stored file in bytes.
    public var fileSize: Int?
    /// Upload or arrival time.
    public var createdAt: Date

    /// Creates an attachment row.
    public init(id: Int64 = Snowflake.next(), accountId: Int64, postId: Int64? = nil, createdAt: Date = Date()) {
        self.id = id
        self.accountId = accountId
        self.postId = postId
        self.createdAt = createdAt
    }
}

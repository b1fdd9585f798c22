import Foundation

/// A change to the alt text or focal point of a photo already in a post, sent with an edit as
/// `media_attributes[][id]`, `[description]` and `[focus]` (Mastodon 4.1): how apps fix alt
/// text after posting, since `PUT /api/v1/media/:id` only changes uploads not yet attached.
public struct MediaEdit: Sendable, Equatable {
    /// The attachment.
    public var id: Int64
    /// New alt text, if sent.
    public var description: String?
    /// New focal point, if sent.
    public var focus: FocalPoint?

    /// An edit of attachment `id`.
    public init(id: Int64, description: String? = nil, focus: FocalPoint? = nil) {
        self.id = id
        self.description = description
        self.focus = focus
    }
}

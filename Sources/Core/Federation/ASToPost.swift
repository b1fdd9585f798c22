import Activity
import Foundation
import Storage

/// Converts incoming ActivityStreams objects into posts and their parts; remote HTML is
/// sanitised here, once, on the way in, after being cut to `RemoteLimits` (never inside a
/// write transaction), and only http(s) URLs are kept.
package enum ASToPost {
    /// Object types stored as posts (Mastodon's, Pixelfed's and the long-form ones).
    package static let postTypes: Set<String> = ["Note", "Image", "Article", "Page", "Question", "Video"]
    /// At most this many photos per post are kept.
    package static let maxAttachments = 10

    /// Whether `object` is something we store as a post.
    package static func isPost(_ object: ASObject) -> Bool {
        object.types.contains(where: postTypes.contains)
    }

    /// The caption as safe HTML; long-form objects keep their title as a first line.
    package static func content(_ object: ASObject) -> String {
        let body = HTMLSanitizer.sanitize(RemoteLimits.truncated(object.effectiveContent ?? "", to: RemoteLimits.content))
        if object.hasType("Article") || object.hasType("Page"), let title = object.name, !title.isEmpty {
            return "<p><strong>\(HTMLSanitizer.sanitize(RemoteLimits.truncated(title, to: RemoteLimits.summary)))</strong></p>" + body
        }
        return body
    }

    /// The poll of a `Question` as the post `postId`'s, its choices as plain text; `nil` when
    /// the object has none.
    package static func poll(_ object: ASObject, postId: Int64) -> Poll? {
        guard let asked = object.poll else { return nil }
        var seen = Set<String>()
        var options: [String] = []
        var votes: [Int] = []
        for option in asked.options {
            let name = HTMLSanitizer.plainText(RemoteLimits.truncated(option.name, to: RemoteLimits.pollOption))
            guard !name.isEmpty, seen.insert(name).inserted else { continue }
            options.append(name)
            votes.append(option.votes)
        }
        guard !options.isEmpty else { return nil }
        var poll = Poll(postId: postId, options: options, multiple: asked.multiple, expiresAt: asked.endTime)
        poll.votes = votes
        poll.votersCount = asked.votersCount
        poll.closedAt = asked.closed
        return poll
    }

    /// Whether `object` is a vote in a poll (Mastodon's shape: a `Note` with a `name`, the
    /// choice, replying to the `Question`, with no content).
    package static func isVote(_ object: ASObject) -> Bool {
        object.hasType("Note") && !(object.name ?? "").isEmpty && object.inReplyTo != nil
            && (object.content ?? "").isEmpty && object.attachment.isEmpty
    }

    /// Photo attachments in order; an `Image` object is itself the photo.
    package static func media(_ object: ASObject, accountId: Int64, now: Date) -> [MediaAttachment] {
        let items = object.attachment.isEmpty && object.hasType("Image") ? [object] : object.attachment
        return items.prefix(maxAttachments).compactMap { item -> MediaAttachment? in
            guard let url = RemoteLimits.webURL(item.url ?? item.href) else { return nil }
            var media = MediaAttachment(accountId: accountId, createdAt: now)
            media.remoteUrl = url
            media.contentType = item.mediaType
            media.type = mediaKind(item)
            media.description = HTMLSanitizer.plainText(RemoteLimits.truncated(item.name ?? item.summary ?? "", to: RemoteLimits.altText))
            // Sizes other servers declare are only layout hints: impossible ones are dropped.
            media.width = item.width.flatMap(plausibleSide)
            media.height = item.height.flatMap(plausibleSide)
            media.blurhash = item.blurhash.map { RemoteLimits.truncated($0, to: 100) }
            if let focal = item.focalPoint, focal.count == 2 {
                media.focusX = min(1, max(-1, focal[0]))
                media.focusY = min(1, max(-1, focal[1]))
            }
            return media
        }
    }

    /// A declared image side in pixels, when it could be one (1 to 100,000).
    package static func plausibleSide(_ value: Int) -> Int? { (1...100_000).contains(value) ? value : nil }

    /// Hashtag names without `#`, from `Hashtag` tags (among the first `RemoteLimits.tags` tags).
    package static func hashtags(_ object: ASObject) -> [String] {
        var seen = Set<String>()
        return object.tag.prefix(RemoteLimits.tags).filter { $0.hasType("Hashtag") }.compactMap { tag in
            let name = String((tag.name ?? "").drop(while: { $0 == "#" }))
            guard !name.isEmpty, name.count <= 100, seen.insert(name.lowercased()).inserted else { return nil }
            return name
        }
    }

    /// Actor ids of `Mention` tags (at most `RemoteLimits.mentions`).
    package static func mentionURIs(_ object: ASObject) -> [String] {
        Array(object.tag.prefix(RemoteLimits.tags).filter { $0.hasType("Mention") }.compactMap { RemoteLimits.webURL($0.href) }
            .prefix(RemoteLimits.mentions))
    }

    private static func mediaKind(_ item: ASObject) -> String {
        let type = item.mediaType?.lowercased() ?? ""
        if type.hasPrefix("video/") { return type == "video/gif" ? "gifv" : "video" }
        if type.hasPrefix("audio/") { return "audio" }
        return type.hasPrefix("image/") || item.hasType("Image") || type.isEmpty ? "image" : "unknown"
    }
}

import Activity
import Foundation
import Storage

/// Converts stored posts to the ActivityStreams `Note` (and its `Create`) other servers read,
/// shaped like Mastodon's and Pixelfed's.
package struct PostToAS {
    package let urls: NodeURLs

    /// Each part as given.
    package init(urls: NodeURLs) {
        self.urls = urls
    }

    /// Everything a Note needs besides the post row.
    package struct Parts: Sendable {
        package var author: Account
        package var media: [MediaAttachment]
        package var hashtags: [String]
        package var mentions: [Account]
        package var inReplyToUri: String?
        /// Its poll, which makes the object a `Question`.
        package var poll: Poll? = nil

        /// Reads the parts of `post` from the database.
        package static func read(_ post: Post, in db: Transaction) throws -> Parts {
            let author = try db.accounts.find(id: post.accountId)!
            let media = try db.media.attachments(of: post.id)
            let hashtags = try db.posts.hashtagNames(of: post.id)
            let mentions = try db.posts.mentionedAccounts(of: post.id)
            let parent = try post.inReplyToId.flatMap { try db.posts.find(id: $0)?.uri } ?? post.inReplyToUri
            return Parts(author: author, media: media, hashtags: hashtags, mentions: mentions, inReplyToUri: parent,
                         poll: try db.polls.find(post: post.id))
        }
    }

    /// The `Note` for a local post (a `Question` when it has a poll).
    package func note(_ post: Post, parts: Parts) -> ASObject {
        let (to, cc) = Audience.addressing(post.visibility, author: parts.author, mentions: parts.mentions)
        let tags = parts.hashtags.map { ASObject(type: "Hashtag", name: "#\($0)", href: urls.tag($0.lowercased())) }
            + parts.mentions.map { ASObject(type: "Mention", name: "@\($0.username)@\($0.domain ?? urls.domain)", href: $0.uri) }
        var note = ASObject(
            id: post.uri, type: "Note", to: to, cc: cc, attributedTo: parts.author.uri,
            summary: post.spoilerText.isEmpty ? nil : post.spoilerText, content: post.content,
            contentMap: post.language.map { [$0: post.content] }, url: post.url ?? post.uri,
            inReplyTo: parts.inReplyToUri, published: post.createdAt, updated: post.editedAt,
            sensitive: post.sensitive, attachment: parts.media.map(attachment), tag: tags,
            likes: .id(post.uri + "/likes"), replies: .id(post.uri + "/replies"))
        // Mastodon always sends `summary` (`null` without a content warning) and `sensitive`;
        // some receivers read them without checking they exist.
        if note.summary == nil { note.extra["summary"] = .null }
        if let poll = parts.poll {
            note.types = ["Question"]
            // Hidden totals stay hidden from other servers too until the poll ends.
            let hidden = poll.hideTotals && !poll.isExpired()
            note.poll = ASPoll(options: zip(poll.options, poll.votes).map { ASPoll.Option(name: $0, votes: hidden ? 0 : $1) },
                               multiple: poll.multiple, endTime: poll.expiresAt, closed: poll.closedAt,
                               votersCount: hidden ? 0 : poll.votersCount ?? 0)
        }
        return note
    }

    /// The `Create` wrapping a post's Note, addressed like it.
    package func create(_ post: Post, parts: Parts) -> ASObject {
        let note = note(post, parts: parts)
        return ASObject(id: post.uri + "/activity", type: "Create", actor: .id(parts.author.uri), object: .object(note),
                        to: note.to, cc: note.cc, published: post.createdAt)
    }

    /// A photo as a `Document` with its metadata (Mastodon's shape; Pixelfed reads it too).
    package func attachment(_ media: MediaAttachment) -> ASObject {
        let url = media.remoteUrl ?? media.filePath.map { "\(urls.base)/media/\($0)" } ?? ""
        let focal = media.focusX.flatMap { x in media.focusY.map { [x, $0] } }
        return ASObject(type: "Document", name: media.description.isEmpty ? nil : media.description,
                        mediaType: media.contentType, url: url, width: media.width, height: media.height,
                        blurhash: media.blurhash, focalPoint: focal)
    }
}

/// ActivityPub addressing of posts by visibility (as Mastodon addresses them).
package enum Audience {
    /// `to` and `cc` for a post: public → to Public; unlisted → cc Public; followers-only →
    /// to the followers collection; direct → the mentioned accounts only.
    package static func addressing(_ visibility: Visibility, author: Account, mentions: [Account]) -> (to: [String], cc: [String]) {
        let followers = author.followersUrl ?? author.uri + "/followers"
        let mentioned = mentions.map(\.uri)
        switch visibility {
        case .public: return ([ActivityStreams.publicAddress], [followers] + mentioned)
        case .unlisted: return ([followers], [ActivityStreams.publicAddress] + mentioned)
        case .private: return ([followers], mentioned)
        case .direct: return (mentioned, [])
        }
    }

    /// The visibility an incoming object's addressing expresses.
    package static func visibility(of object: ASObject, author: Account) -> Visibility {
        if object.to.contains(where: ActivityStreams.isPublic) { return .public }
        if object.cc.contains(where: ActivityStreams.isPublic) { return .unlisted }
        let followers = author.followersUrl ?? author.uri + "/followers"
        return (object.to + object.cc).contains(followers) ? .private : .direct
    }
}

import Core
import Foundation

/// One timeline a streaming client can subscribe to, with Mastodon's stream names
/// (docs.joinmastodon.org/methods/streaming/#streams).
public enum StreamChannel: Hashable, Sendable {
    /// Which posts a public stream carries.
    public enum Origin: Hashable, Sendable {
        /// Local and remote posts.
        case all
        /// Posts by this node's accounts.
        case local
        /// Posts from other nodes.
        case remote
    }

    /// The home timeline and the notifications of the viewer (`user`).
    case user
    /// The viewer's notifications only (`user:notification`).
    case userNotification
    /// Public posts (`public`, `public:local`, `public:remote`, and their `:media` forms).
    case `public`(Origin, onlyMedia: Bool)
    /// Public posts with a hashtag (`hashtag`, `hashtag:local`); the tag is lowercased.
    case hashtag(String, localOnly: Bool)
    /// The posts of one of the viewer's lists (`list`, with the list id).
    case list(Int64)
    /// The viewer's direct conversations (`direct`): `conversation` events.
    case direct

    /// Parses a stream name as sent in `{"type":"subscribe","stream":...}` or `?stream=`.
    /// - Parameters:
    ///   - name: The stream name.
    ///   - tag: The `tag` parameter, required by hashtag streams (a leading `#` is ignored).
    ///   - list: The `list` parameter, the id required by list streams.
    /// - Returns: `nil` for unknown names, hashtag streams without a tag and list streams
    ///   without a list id.
    public init?(name: String, tag: String? = nil, list: String? = nil) {
        switch name {
        case "user": self = .user
        case "user:notification": self = .userNotification
        case "public": self = .public(.all, onlyMedia: false)
        case "public:media": self = .public(.all, onlyMedia: true)
        case "public:local": self = .public(.local, onlyMedia: false)
        case "public:local:media": self = .public(.local, onlyMedia: true)
        case "public:remote": self = .public(.remote, onlyMedia: false)
        case "public:remote:media": self = .public(.remote, onlyMedia: true)
        case "hashtag", "hashtag:local":
            var cleaned = (tag ?? "").trimmingCharacters(in: .whitespaces)
            if cleaned.hasPrefix("#") { cleaned.removeFirst() }
            guard !cleaned.isEmpty else { return nil }
            self = .hashtag(cleaned.lowercased(), localOnly: name == "hashtag:local")
        case "list":
            guard let id = list.flatMap({ Int64($0.trimmingCharacters(in: .whitespaces)) }) else { return nil }
            self = .list(id)
        case "direct": self = .direct
        default: return nil
        }
    }

    /// The stream name, as Mastodon writes it.
    public var name: String {
        switch self {
        case .user: "user"
        case .userNotification: "user:notification"
        case .public(let origin, let onlyMedia):
            "public" + (origin == .local ? ":local" : origin == .remote ? ":remote" : "") + (onlyMedia ? ":media" : "")
        case .hashtag(_, let localOnly): localOnly ? "hashtag:local" : "hashtag"
        case .list: "list"
        case .direct: "direct"
        }
    }

    /// The `stream` array of an event: the name, and the tag for hashtag streams.
    public var labels: [String] {
        switch self {
        case .hashtag(let tag, _): [name, tag]
        case .list(let id): [name, String(id)]
        default: [name]
        }
    }

    /// Whether the stream is about the viewer personally (needs an account).
    public var isPersonal: Bool {
        switch self {
        case .user, .userNotification, .list, .direct: true
        default: false
        }
    }

    /// The scope a token needs to subscribe, as Mastodon's streaming server checks it.
    public var requiredScope: String { self == .userNotification ? "read:notifications" : "read:statuses" }

    /// The public streams a public, top-level post goes to (hashtag streams included).
    /// - Parameters:
    ///   - local: Whether the author is local.
    ///   - hasMedia: Whether the post has photos.
    ///   - tags: Its hashtags, lowercased.
    static func publicAudience(local: Bool, hasMedia: Bool, tags: [String]) -> Set<StreamChannel> {
        var channels: Set<StreamChannel> = []
        for onlyMedia in hasMedia ? [false, true] : [false] {
            channels.insert(.public(.all, onlyMedia: onlyMedia))
            channels.insert(.public(local ? .local : .remote, onlyMedia: onlyMedia))
        }
        for tag in tags {
            channels.insert(.hashtag(tag, localOnly: false))
            if local { channels.insert(.hashtag(tag, localOnly: true)) }
        }
        return channels
    }

    /// Every public stream without a tag: where deletes of posts not seen since start go.
    static let untaggedPublic: Set<StreamChannel> = [
        .public(.all, onlyMedia: false), .public(.all, onlyMedia: true), .public(.local, onlyMedia: false),
        .public(.local, onlyMedia: true), .public(.remote, onlyMedia: false), .public(.remote, onlyMedia: true),
    ]
}

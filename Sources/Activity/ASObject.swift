import Foundation

/// Tolerant, single representation of any ActivityStreams object, actor, activity, collection
/// or link.
///
/// One type keeps decoding uniform: ActivityPub lets almost any property hold a bare id, an
/// embedded object or an array, and real servers use all three. `types` holds every type
/// name; the `type` shortcut is the first.
///
/// Wire-format quirks are settled when decoding (see `ASObject+Decoding.swift`): addressing
/// becomes arrays of ids, `url` becomes one string, `icon` one object, and so on. Unknown
/// members land in `extra` and are written back by `encoded()` (known members win), so the
/// node can carry extension fields such as `quoteUrl` or `commentsEnabled` through.
public struct ASObject: Sendable, Equatable {
    /// `@context`, kept as sent (a string, an array of strings and objects, or an object);
    /// encoded only when non-nil.
    public var context: JSONValue?
    /// `id`.
    public var id: String?
    /// `type`: every type name, in the order sent. A single type is written as a string.
    public var types: [String]

    // MARK: Activity

    /// `actor` (string, object, or the first of an array).
    public var actor: ASReference?
    /// `object` (string, object, or the first of an array).
    public var object: ASReference?
    /// Every id of `object` when it is an array (a `Flag` names an account and its posts);
    /// empty otherwise; read only, never written back.
    public var objectIds: [String] = []
    /// `target`.
    public var target: ASReference?
    /// `result`.
    public var result: ASReference?

    // MARK: Addressing (ActivityPub 5.1); arrays of ids, absent means empty

    /// `to`.
    public var to: [String]
    /// `cc`.
    public var cc: [String]
    /// `bto` (never delivered onward; ActivityPub 7.1 says to strip it).
    public var bto: [String]
    /// `bcc` (never delivered onward).
    public var bcc: [String]
    /// `audience`.
    public var audience: [String]

    // MARK: Content

    /// `attributedTo`: the first actor id (Pixelfed and PeerTube send arrays of Person + Group).
    public var attributedTo: String?
    /// `name` (also the alt text of an attachment and the label of a tag or PropertyValue).
    public var name: String?
    /// `summary` (the content warning of a Note, the bio of an actor).
    public var summary: String?
    /// `content` (HTML).
    public var content: String?
    /// `contentMap`: language tag → HTML; what to show when `content` is absent.
    public var contentMap: [String: String]?
    /// `mediaType`.
    public var mediaType: String?
    /// `url`: a string; from a Link or an array, the text/html link is preferred.
    public var url: String?
    /// `inReplyTo` as an id.
    public var inReplyTo: String?
    /// `published`; nil when absent or unparseable.
    public var published: Date?
    /// `updated`; nil when absent or unparseable.
    public var updated: Date?
    /// `sensitive` (Mastodon extension `as:sensitive`).
    public var sensitive: Bool?
    /// `attachment`: media of a post, PropertyValue fields of an actor.
    public var attachment: [ASObject]
    /// `tag`: Mention, Hashtag and Emoji objects.
    public var tag: [ASObject]
    private var iconStorage: [ASObject]
    private var imageStorage: [ASObject]
    /// `width` in pixels.
    public var width: Int?
    /// `height` in pixels.
    public var height: Int?
    /// `blurhash` (Mastodon extension `toot:blurhash`).
    public var blurhash: String?
    /// `focalPoint` (`[x, y]`, each in -1...1; Mastodon extension).
    public var focalPoint: [Double]?
    /// `href` of a Link, Mention or Hashtag.
    public var href: String?
    /// `value` of a PropertyValue (schema.org).
    public var value: String?

    // MARK: Actor

    /// `preferredUsername`.
    public var preferredUsername: String?
    /// `inbox`.
    public var inbox: String?
    /// `outbox`.
    public var outbox: String?
    /// `followers`.
    public var followers: String?
    /// `following`.
    public var following: String?
    /// `endpoints` (the `sharedInbox`).
    public var endpoints: ASEndpoints?
    /// `publicKey`: the actor's RSA key (the first RSA one when several are sent).
    public var publicKey: ASPublicKey?
    /// `manuallyApprovesFollowers` (a locked account).
    public var manuallyApprovesFollowers: Bool?
    /// `discoverable` (Mastodon extension).
    public var discoverable: Bool?
    /// `indexable` (Mastodon extension: may posts be full-text searched).
    public var indexable: Bool?
    /// `featured`: the collection of pinned posts.
    public var featured: String?

    // MARK: Collection

    /// `totalItems`.
    public var totalItems: Int?
    /// `first` page.
    public var first: ASReference?
    /// `last` page.
    public var last: ASReference?
    /// `next` page.
    public var next: ASReference?
    /// `prev` page.
    public var prev: ASReference?
    /// `partOf`: the collection a page belongs to.
    public var partOf: String?
    /// `orderedItems` or `items`; written as `orderedItems` when a type starts with `Ordered`.
    public var items: [ASReference]?
    /// `likes` collection.
    public var likes: ASReference?
    /// `replies` collection.
    public var replies: ASReference?
    /// `shares` collection.
    public var shares: ASReference?

    /// Members this type does not model, kept as sent and written back by `encoded()`.
    public var extra: [String: JSONValue]

    /// `icon`: an avatar or emoji image (from an object, the first of an array, or a bare URL).
    public var icon: ASObject? {
        get { iconStorage.first }
        set { iconStorage = newValue.map { [$0] } ?? [] }
    }

    /// `image`: a header image (from an object, the first of an array, or a bare URL).
    public var image: ASObject? {
        get { imageStorage.first }
        set { imageStorage = newValue.map { [$0] } ?? [] }
    }

    /// The first type name.
    public var type: String? {
        types.first
    }

    /// An object with the given types and no members: the starting point of decoding.
    init(types: [String]) {
        self.types = types
        to = []; cc = []; bto = []; bcc = []; audience = []
        attachment = []; tag = []; iconStorage = []; imageStorage = []
        extra = [:]
    }
}

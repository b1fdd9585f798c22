import Foundation

extension ASObject {
    /// Decode tolerant of what real servers send; unknown fields ignored; wrong-typed optional
    /// fields become nil rather than failing the whole object (only a non-object top level, or
    /// missing "type", fails).
    /// - Parameters:
    ///   - data: a JSON text within `limits`.
    ///   - limits: the deepest nesting and most values accepted (`JSONLimits.federation` unless told).
    /// - Throws: `ActivityError.tooDeep`, `.tooManyValues`, `.invalidJSON`, `.notAnObject` or `.missingType`.
    public static func decode(from data: Data, limits: JSONLimits = .federation) throws(ActivityError) -> ASObject {
        try ASObject(json: JSONValue.parse(data, limits: limits))
    }

    /// Reads an already-parsed document with the same rules as `decode(from:)`.
    /// - Throws: `ActivityError.notAnObject` or `.missingType`.
    public init(json: JSONValue) throws(ActivityError) {
        guard let members = json.objectValue else { throw .notAnObject }
        self.init(lenient: members)
        guard !types.isEmpty else { throw .missingType }
    }

    /// Reads an embedded object. Embedded objects may lack a type (a Link in `url`, a key in
    /// `publicKey`), so nothing here fails.
    init(lenient members: [String: JSONValue]) {
        self.init(types: Self.types(in: members))
        readCore(members)
        readContent(members)
        readMedia(members)
        readActor(members)
        readCollection(members)
        extra = members.filter { !Self.knownKeys.contains($0.key) }
    }

    private static func types(in members: [String: JSONValue]) -> [String] {
        let raw = members["type"] ?? members["@type"] ?? .null
        return raw.asList.compactMap(\.stringValue).filter { !$0.isEmpty }
    }

    private mutating func readCore(_ members: [String: JSONValue]) {
        context = members["@context"].flatMap { $0 == .null ? nil : $0 }
        id = members.string("id") ?? members.string("@id")
        actor = members.reference("actor")
        object = members.reference("object")
        if case .array(let list)? = members["object"] {
            objectIds = Array(list.lazy.compactMap { ASReference(json: $0)?.id }.prefix(JSONLimits.maxObjectIds))
        }
        target = members.reference("target")
        result = members.reference("result")
        to = members.ids("to")
        cc = members.ids("cc")
        bto = members.ids("bto")
        bcc = members.ids("bcc")
        audience = members.ids("audience")
    }

    private mutating func readContent(_ members: [String: JSONValue]) {
        attributedTo = members["attributedTo"].flatMap(Self.firstActorID)
        name = members.string("name")
        summary = members.string("summary")
        content = members.string("content")
        contentMap = members["contentMap"]?.objectValue?.compactMapValues(\.stringValue)
        mediaType = members.string("mediaType")
        url = members["url"].flatMap(Self.preferredURL)
        inReplyTo = members.id("inReplyTo")
        published = members.date("published")
        updated = members.date("updated")
        sensitive = members.bool("sensitive")
        attachment = members.objects("attachment")
        tag = members.objects("tag")
    }

    private mutating func readMedia(_ members: [String: JSONValue]) {
        icon = members["icon"].flatMap(Self.imageObject)
        image = members["image"].flatMap(Self.imageObject)
        width = members.int("width")
        height = members.int("height")
        blurhash = members.string("blurhash")
        focalPoint = members["focalPoint"]?.arrayValue.flatMap { point in
            let numbers = point.compactMap(\.doubleValue)
            return numbers.count == point.count ? numbers : nil
        }
        href = members.string("href")
        value = members.string("value")
    }

    private mutating func readActor(_ members: [String: JSONValue]) {
        preferredUsername = members.string("preferredUsername")
        inbox = members.id("inbox")
        outbox = members.id("outbox")
        followers = members.id("followers")
        following = members.id("following")
        endpoints = members["endpoints"]?.objectValue.map { ASEndpoints(sharedInbox: $0.id("sharedInbox")) }
        publicKey = Self.rsaKey(in: members["publicKey"], owner: id)
        manuallyApprovesFollowers = members.bool("manuallyApprovesFollowers")
        discoverable = members.bool("discoverable")
        indexable = members.bool("indexable")
        featured = members.id("featured")
    }

    private mutating func readCollection(_ members: [String: JSONValue]) {
        totalItems = members.int("totalItems")
        first = members.reference("first")
        last = members.reference("last")
        next = members.reference("next")
        prev = members.reference("prev")
        partOf = members.id("partOf")
        items = (members["orderedItems"] ?? members["items"]).flatMap { list in
            switch list {
            case .array, .object, .string: return list.asList.compactMap { ASReference(json: $0) }
            default: return nil
            }
        }
        likes = members.reference("likes")
        replies = members.reference("replies")
        shares = members.reference("shares")
    }
}

extension ASObject {
    /// Members read into typed properties (everything else goes to `extra`).
    static let knownKeys: Set<String> = [
        "@context", "id", "@id", "type", "@type", "actor", "object", "target", "result",
        "to", "cc", "bto", "bcc", "audience", "attributedTo", "name", "summary", "content",
        "contentMap", "mediaType", "url", "inReplyTo", "published", "updated", "sensitive",
        "attachment", "tag", "icon", "image", "width", "height", "blurhash", "focalPoint",
        "href", "value", "preferredUsername", "inbox", "outbox", "followers", "following",
        "endpoints", "publicKey", "manuallyApprovesFollowers", "discoverable", "indexable",
        "featured", "totalItems", "first", "last", "next", "prev", "partOf", "orderedItems",
        "items", "likes", "replies", "shares",
    ]

    /// The author among several attributions: Pixelfed and PeerTube list the Person and the
    /// Group (channel); the first entry that is not a Group wins, else the first id.
    static func firstActorID(_ value: JSONValue) -> String? {
        let entries = value.asList
        let author = entries.first { entry in
            guard let members = entry.objectValue else { return entry.stringValue != nil }
            return !(members["type"]?.asList ?? []).contains("Group")
        }
        return author.flatMap(JSONValue.idOf) ?? entries.lazy.compactMap(JSONValue.idOf).first
    }

    /// One URL from a string, a Link (`href`) or an array: the text/html link is preferred
    /// (the page a person opens), else the first.
    static func preferredURL(_ value: JSONValue) -> String? {
        let entries = value.asList
        let html = entries.first { $0["mediaType"]?.stringValue?.lowercased().hasPrefix("text/html") == true }
        return (html ?? entries.first).flatMap(linkTarget) ?? entries.lazy.compactMap(linkTarget).first
    }

    private static func linkTarget(_ value: JSONValue) -> String? {
        switch value {
        case .string(let url): return url.isEmpty ? nil : url
        case .object(let members): return members.string("href") ?? members.string("url")
        default: return nil
        }
    }

    /// `icon`/`image`: an object, the first of an array, or a bare URL (an Image with that url).
    static func imageObject(_ value: JSONValue) -> ASObject? {
        switch value {
        case .object(let members): return ASObject(lenient: members)
        case .string(let url) where !url.isEmpty:
            var image = ASObject(types: ["Image"])
            image.url = url
            return image
        case .array(let elements): return elements.lazy.compactMap(imageObject).first
        default: return nil
        }
    }

    /// The key of a single key object, or the first RSA key of an array of keys.
    static func rsaKey(in value: JSONValue?, owner: String?) -> ASPublicKey? {
        switch value {
        case .object(let members)?: return ASPublicKey(json: members, fallbackOwner: owner)
        case .array(let entries)?:
            return entries.lazy.compactMap { $0.objectValue }
                .compactMap { ASPublicKey(json: $0, fallbackOwner: owner) }
                .first(where: \.isRSA)
        default: return nil
        }
    }
}

extension ASObject: Codable {
    /// Decodes with the rules of `decode(from:)`; throws `ActivityError` for a non-object or
    /// a missing type.
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONValue(from: decoder))
    }

    /// Encodes the wire form described at `jsonValue`.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}

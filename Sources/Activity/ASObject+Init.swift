import Foundation

extension ASObject {
    /// Builds an object; every member but `type` is optional and defaults to absent.
    public init(
        id: String? = nil, type: String, context: JSONValue? = nil,
        actor: ASReference? = nil, object: ASReference? = nil, target: ASReference? = nil,
        result: ASReference? = nil, to: [String] = [], cc: [String] = [], bto: [String] = [],
        bcc: [String] = [], audience: [String] = [], attributedTo: String? = nil,
        name: String? = nil, summary: String? = nil, content: String? = nil,
        contentMap: [String: String]? = nil, mediaType: String? = nil, url: String? = nil,
        inReplyTo: String? = nil, published: Date? = nil, updated: Date? = nil,
        sensitive: Bool? = nil, attachment: [ASObject] = [], tag: [ASObject] = [],
        icon: ASObject? = nil, image: ASObject? = nil, width: Int? = nil, height: Int? = nil,
        blurhash: String? = nil, focalPoint: [Double]? = nil, href: String? = nil,
        value: String? = nil, preferredUsername: String? = nil, inbox: String? = nil,
        outbox: String? = nil, followers: String? = nil, following: String? = nil,
        endpoints: ASEndpoints? = nil, publicKey: ASPublicKey? = nil,
        manuallyApprovesFollowers: Bool? = nil, discoverable: Bool? = nil, indexable: Bool? = nil,
        featured: String? = nil, totalItems: Int? = nil, first: ASReference? = nil,
        last: ASReference? = nil, next: ASReference? = nil, prev: ASReference? = nil,
        partOf: String? = nil, items: [ASReference]? = nil, likes: ASReference? = nil,
        replies: ASReference? = nil, shares: ASReference? = nil, extra: [String: JSONValue] = [:]
    ) {
        self.init(types: [type])
        self.id = id; self.context = context
        self.actor = actor; self.object = object; self.target = target; self.result = result
        self.to = to; self.cc = cc; self.bto = bto; self.bcc = bcc; self.audience = audience
        self.attributedTo = attributedTo; self.name = name; self.summary = summary
        self.content = content; self.contentMap = contentMap; self.mediaType = mediaType
        self.url = url; self.inReplyTo = inReplyTo; self.published = published
        self.updated = updated; self.sensitive = sensitive; self.attachment = attachment
        self.tag = tag; self.icon = icon; self.image = image; self.width = width
        self.height = height; self.blurhash = blurhash; self.focalPoint = focalPoint
        self.href = href; self.value = value; self.preferredUsername = preferredUsername
        self.inbox = inbox; self.outbox = outbox; self.followers = followers
        self.following = following; self.endpoints = endpoints; self.publicKey = publicKey
        self.manuallyApprovesFollowers = manuallyApprovesFollowers
        self.discoverable = discoverable; self.indexable = indexable; self.featured = featured
        self.totalItems = totalItems; self.first = first; self.last = last; self.next = next
        self.prev = prev; self.partOf = partOf; self.items = items; self.likes = likes
        self.replies = replies; self.shares = shares; self.extra = extra
    }
}

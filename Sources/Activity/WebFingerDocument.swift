/// A WebFinger JSON Resource Descriptor (RFC 7033 4.4).
public struct WebFingerDocument: Codable, Sendable, Equatable {
    /// `subject`: the resource the document describes (`acct:NAME@DOMAIN` or a URL).
    public var subject: String
    /// `aliases`: other URIs for the same subject.
    public var aliases: [String]?
    /// `properties`: URI → value; a value may be `null` (RFC 7033 4.4.3).
    public var properties: [String: String?]?
    /// `links`.
    public var links: [WebFingerLink]

    /// Makes a document.
    public init(subject: String, aliases: [String]? = nil, properties: [String: String?]? = nil,
                links: [WebFingerLink] = []) {
        self.subject = subject
        self.aliases = aliases
        self.properties = properties
        self.links = links
    }

    /// Decodes `links` as empty when absent: RFC 7033 makes every member but `subject` optional.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        subject = try container.decode(String.self, forKey: .subject)
        aliases = try container.decodeIfPresent([String].self, forKey: .aliases)
        properties = try container.decodeIfPresent([String: String?].self, forKey: .properties)
        links = try container.decodeIfPresent([WebFingerLink].self, forKey: .links) ?? []
    }

    /// The first link with relation `rel` (and media type `type`, when given).
    public func link(rel: String, type: String? = nil) -> WebFingerLink? {
        links.first { $0.rel == rel && (type == nil || $0.type == type) }
    }

    /// The ActivityPub actor id: the `self` link whose type is activity+json or ld+json.
    public var actorURL: String? {
        links.first { link in
            link.rel == "self" && link.href != nil && ActivityStreams.isActivityPubMediaType(link.type ?? "")
        }?.href
    }

    /// The document a node serves for one of its accounts, in Mastodon's shape: subject
    /// `acct:`, aliases (profile page, actor), and the profile-page, self and subscribe links.
    /// - Parameters:
    ///   - username: the local username.
    ///   - domain: the node's domain (with port in tests).
    ///   - actorURL: the actor id (`https://DOMAIN/users/NAME`).
    ///   - profileURL: the HTML profile page.
    ///   - subscribeTemplate: the remote-follow URL template with `{uri}`, if any.
    public static func account(username: String, domain: String, actorURL: String, profileURL: String,
                               subscribeTemplate: String? = nil) -> WebFingerDocument {
        var links = [
            WebFingerLink(rel: "http://webfinger.net/rel/profile-page", type: "text/html", href: profileURL),
            WebFingerLink(rel: "self", type: ActivityStreams.mediaType, href: actorURL),
        ]
        if let subscribeTemplate {
            links.append(WebFingerLink(rel: "http://ostatus.org/schema/1.0/subscribe", template: subscribeTemplate))
        }
        return WebFingerDocument(subject: "acct:\(username)@\(domain)", aliases: [profileURL, actorURL], links: links)
    }
}

/// One link of a JRD (RFC 7033 4.4.4).
public struct WebFingerLink: Codable, Sendable, Equatable {
    /// `rel`: a registered relation type or a URI.
    public var rel: String
    /// `type`: the media type of the target.
    public var type: String?
    /// `href`: the target.
    public var href: String?
    /// `template`: a URI template (used by the OStatus subscribe link instead of `href`).
    public var template: String?
    /// `titles`: language tag → title (`und` when unknown).
    public var titles: [String: String]?
    /// `properties`: URI → value; a value may be `null`.
    public var properties: [String: String?]?

    /// Makes a link.
    public init(rel: String, type: String? = nil, href: String? = nil, template: String? = nil,
                titles: [String: String]? = nil, properties: [String: String?]? = nil) {
        self.rel = rel
        self.type = type
        self.href = href
        self.template = template
        self.titles = titles
        self.properties = properties
    }
}

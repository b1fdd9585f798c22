/// A NodeInfo 2.0 / 2.1 document (http://nodeinfo.diaspora.software/ns/schema/2.1).
///
/// Decoding is tolerant of remote servers that leave out user counts; `make` produces a
/// document that validates against the official 2.1 schema (and 2.0, which lacks
/// `software.repository`/`homepage`).
public struct NodeInfoDocument: Codable, Sendable, Equatable {
    /// `version`: "2.0" or "2.1".
    public var version: String
    /// `software`.
    public var software: Software
    /// `protocols`, e.g. `["activitypub"]`.
    public var protocols: [String]
    /// `services` (third-party sites; FedNode has none).
    public var services: Services
    /// `openRegistrations`.
    public var openRegistrations: Bool
    /// `usage`.
    public var usage: Usage
    /// `metadata`: free-form; FedNode puts `nodeName` here as Mastodon does.
    public var metadata: [String: JSONValue]

    /// The server software.
    public struct Software: Codable, Sendable, Equatable {
        /// `name`, matching `^[a-z0-9-]+$`.
        public var name: String
        /// `version`.
        public var version: String
        /// `repository` (2.1 only).
        public var repository: String?
        /// `homepage` (2.1 only).
        public var homepage: String?

        /// Makes a software description.
        public init(name: String, version: String, repository: String? = nil, homepage: String? = nil) {
            self.name = name
            self.version = version
            self.repository = repository
            self.homepage = homepage
        }
    }

    /// Third-party services the node reads from or posts to.
    public struct Services: Codable, Sendable, Equatable {
        /// `inbound`.
        public var inbound: [String]
        /// `outbound`.
        public var outbound: [String]

        /// Makes a services description.
        public init(inbound: [String] = [], outbound: [String] = []) {
            self.inbound = inbound
            self.outbound = outbound
        }
    }

    /// Usage statistics.
    public struct Usage: Codable, Sendable, Equatable {
        /// `users`.
        public var users: Users
        /// `localPosts`.
        public var localPosts: Int?
        /// `localComments`.
        public var localComments: Int?

        /// Makes usage statistics.
        public init(users: Users, localPosts: Int? = nil, localComments: Int? = nil) {
            self.users = users
            self.localPosts = localPosts
            self.localComments = localComments
        }
    }

    /// User counts.
    public struct Users: Codable, Sendable, Equatable {
        /// `total` registered users.
        public var total: Int?
        /// `activeHalfyear`: users active in the last 180 days.
        public var activeHalfyear: Int?
        /// `activeMonth`: users active in the last 30 days.
        public var activeMonth: Int?

        /// Makes user counts.
        public init(total: Int? = nil, activeHalfyear: Int? = nil, activeMonth: Int? = nil) {
            self.total = total
            self.activeHalfyear = activeHalfyear
            self.activeMonth = activeMonth
        }
    }

    /// Makes a document.
    public init(version: String, software: Software, protocols: [String], services: Services,
                openRegistrations: Bool, usage: Usage, metadata: [String: JSONValue]) {
        self.version = version
        self.software = software
        self.protocols = protocols
        self.services = services
        self.openRegistrations = openRegistrations
        self.usage = usage
        self.metadata = metadata
    }

    /// The document a FedNode node serves at `/nodeinfo/2.0` and `/nodeinfo/2.1`.
    /// Counts below zero are clamped to zero (the schema's `minimum`); `repository` and
    /// `homepage` are only written for version 2.1.
    public static func make(version: String, softwareVersion: String, users: Int, activeHalfyear: Int,
                            activeMonth: Int, localPosts: Int, openRegistrations: Bool, nodeName: String,
                            repository: String? = nil, homepage: String? = nil) -> NodeInfoDocument {
        let is21 = version == "2.1"
        return NodeInfoDocument(
            version: version,
            software: Software(name: "fednode", version: softwareVersion,
                               repository: is21 ? repository : nil, homepage: is21 ? homepage : nil),
            protocols: ["activitypub"],
            services: Services(),
            openRegistrations: openRegistrations,
            usage: Usage(users: Users(total: max(0, users), activeHalfyear: max(0, activeHalfyear),
                                      activeMonth: max(0, activeMonth)),
                         localPosts: max(0, localPosts)),
            metadata: ["nodeName": .string(nodeName)])
    }
}

/// The discovery document at `/.well-known/nodeinfo`.
public struct NodeInfoLinks: Codable, Sendable, Equatable {
    /// The relation for NodeInfo 2.0.
    public static let rel20 = "http://nodeinfo.diaspora.software/ns/schema/2.0"
    /// The relation for NodeInfo 2.1.
    public static let rel21 = "http://nodeinfo.diaspora.software/ns/schema/2.1"

    /// `links`: one per schema version served.
    public var links: [WebFingerLink]

    /// Makes a discovery document.
    public init(links: [WebFingerLink]) {
        self.links = links
    }

    /// Links to `BASE/nodeinfo/2.0` and `BASE/nodeinfo/2.1`.
    /// - Parameter baseURL: the node's public URL, without a trailing slash.
    public static func make(baseURL: String) -> NodeInfoLinks {
        NodeInfoLinks(links: [
            WebFingerLink(rel: rel20, href: "\(baseURL)/nodeinfo/2.0"),
            WebFingerLink(rel: rel21, href: "\(baseURL)/nodeinfo/2.1"),
        ])
    }

    /// The href of the newest version offered (2.1, else 2.0).
    public var preferredHref: String? {
        (links.first { $0.rel == Self.rel21 } ?? links.first { $0.rel == Self.rel20 })?.href
    }
}

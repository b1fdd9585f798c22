import Core
import Foundation
import Hummingbird
import Signatures
import Storage

/// What clients learn about the node before and after signing in: the instance description in
/// both API versions, custom emojis (none) and the limits apps enforce before posting.
struct InstanceController {
    let node: Node

    /// The Mastodon version clients should assume; they parse the leading x.y.z for features.
    static var version: String { "4.3.0 (compatible; FedNode \(NodeConfiguration.softwareVersion))" }

    /// Limits shared by both versions. The posting and upload code enforces the same numbers.
    /// Pinned posts and featured tags do not exist here, so their limits are zero.
    static let accounts = APIInstanceConfiguration.Accounts(maxFeaturedTags: 0, maxPinnedStatuses: PinService.maxPins)
    static let statuses = APIInstanceConfiguration.Statuses(maxCharacters: 500, maxMediaAttachments: 10, charactersReservedPerUrl: 23)
    static let media = APIInstanceConfiguration.MediaAttachments(
        supportedMimeTypes: ["image/jpeg", "image/png", "image/webp", "image/gif", "image/heic", "image/avif"],
        descriptionLimit: 1500, imageSizeLimit: 16 * 1024 * 1024, imageMatrixLimit: 40_000_000,
        videoSizeLimit: 0, videoFrameRateLimit: 0, videoMatrixLimit: 0)
    /// The limits of polls made here, which composers offer.
    var polls: APIInstanceConfiguration.Polls {
        APIInstanceConfiguration.Polls(maxOptions: PollService.maxOptions, maxCharactersPerOption: PollService.maxOptionLength,
                                       minExpiration: node.configuration.minimumPollDuration, maxExpiration: PollService.maxExpiry)
    }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/instance", use: instanceV1)
        router.get("api/v2/instance", use: instanceV2)
        router.get("api/v1/custom_emojis", use: customEmojis)
        router.get("api/v1/instance/peers", use: peers)
        router.get("api/v1/instance/languages", use: languages)
        router.get("api/v1/instance/extended_description", use: extendedDescription)
        router.get("api/v1/instance/privacy_policy", use: unpublished)
        router.get("api/v1/instance/terms_of_service", use: unpublished)
    }

    /// `GET /api/v1/instance`: the v1 `Instance` (public).
    @Sendable func instanceV1(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let counts = try await self.counts()
        let configuration = node.configuration
        let instance = APIInstanceV1(
            uri: node.urls.domain, title: configuration.nodeName, shortDescription: "", description: "", email: "",
            version: Self.version, urls: .init(streamingApi: streamingURL),
            stats: .init(userCount: counts.usage.users, statusCount: counts.usage.localPosts, domainCount: counts.domains),
            thumbnail: thumbnailURL, languages: ["en"], registrations: configuration.registrations.acceptsSignUps,
            approvalRequired: configuration.registrations == .approval,
            // Users cannot make invites (the operator does, with `fednode admin invite`).
            invitesEnabled: false,
            configuration: APIInstanceConfigurationV1(accounts: Self.accounts, statuses: Self.statuses, mediaAttachments: Self.media, polls: polls),
            contactAccount: nil, rules: try await rules())
        return APIResponse.json(instance, headers: Self.publicCache)
    }

    /// `GET /api/v2/instance`: the v2 `Instance` (public).
    @Sendable func instanceV2(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let counts = try await self.counts()
        let configuration = node.configuration
        let instance = APIInstance(
            domain: node.urls.domain, title: configuration.nodeName, version: Self.version, sourceUrl: node.urls.base + "/",
            description: "", usage: .init(users: .init(activeMonth: counts.usage.activeMonth)),
            thumbnail: .init(url: thumbnailURL, blurhash: nil), icon: [], languages: ["en"],
            configuration: APIInstanceConfiguration(
                urls: .init(streaming: streamingURL, status: nil, about: node.urls.base + "/"), vapid: .init(publicKey: Base64URL.encode(node.vapidKey.publicKey)), accounts: Self.accounts,
                statuses: Self.statuses, mediaAttachments: Self.media, polls: polls, translation: .init(enabled: false)),
            registrations: .init(enabled: configuration.registrations.acceptsSignUps, approvalRequired: configuration.registrations == .approval,
                                 message: Self.registrationMessage(configuration.registrations), url: nil, minAge: nil,
                                 reasonRequired: configuration.registrations == .approval),
            apiVersions: ["mastodon": 2], contact: .init(email: "", account: nil), rules: try await rules())
        return APIResponse.json(instance, headers: Self.publicCache)
    }

    /// What sign-up asks for, in the words apps show (`registrations.message`).
    static func registrationMessage(_ mode: RegistrationMode) -> String? {
        switch mode {
        case .open: nil
        case .approval: "Sign-ups are reviewed by the moderators: say why you want to join, and read the rules first."
        case .closed: "Registrations are closed. You can sign up with an invite link from the administrators."
        }
    }

    /// The instance rules, in order.
    private func rules() async throws -> [APIRule] {
        try await node.database.read { db in try db.moderation.rules().map { APIRule(id: String($0.id ?? 0), text: $0.text) } }
    }

    /// `GET /api/v1/custom_emojis`: `[]`; the node has no custom emojis.
    @Sendable func customEmojis(_ request: Request, context: NodeRequestContext) async throws -> Response {
        JSONResponse.bytes(Data("[]".utf8), contentType: JSONResponse.json, headers: Self.publicCache)
    }

    /// The most domains `peers` lists.
    static let maxPeers = 10_000

    /// `GET /api/v1/instance/peers`: the domains this node knows accounts on, sorted, without
    /// those it blocks (public, as on Mastodon).
    @Sendable func peers(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let domains = try await node.read("instance peers") { db in try db.statistics.knownDomains(limit: Self.maxPeers) }
        return APIResponse.json(domains, headers: Self.publicCache)
    }

    /// `GET /api/v1/instance/languages`: the languages the node's pages are written in.
    @Sendable func languages(_ request: Request, context: NodeRequestContext) async throws -> Response {
        APIResponse.json([APILanguage(code: "en", name: "English")], headers: Self.publicCache)
    }

    /// `GET /api/v1/instance/extended_description`: the node's longer description (none written).
    @Sendable func extendedDescription(_ request: Request, context: NodeRequestContext) async throws -> Response {
        APIResponse.json(APIExtendedDescription(updatedAt: nil, content: ""), headers: Self.publicCache)
    }

    /// `GET /api/v1/instance/privacy_policy` and `/terms_of_service`: 404, as Mastodon answers
    /// for a document the server has not published; none is published here.
    @Sendable func unpublished(_ request: Request, context: NodeRequestContext) async throws -> Response {
        throw NodeError.notFound("This server has not published this document")
    }

    /// Local accounts and posts, and how many other nodes this one knows accounts on.
    private func counts() async throws(NodeError) -> (usage: UsageCounts, domains: Int) {
        do {
            return try await node.database.read { db in
                let domains = try db.statistics.knownDomainCount()
                return (try UsageCounts.read(db, now: Date()), domains)
            }
        } catch { throw .internal("counting instance stats: \(error)") }
    }

    /// The streaming API's base: the public URL with `ws`/`wss` for `http`/`https`.
    private var streamingURL: String {
        let base = node.urls.base
        if base.hasPrefix("https://") { return "wss://" + base.dropFirst("https://".count) }
        if base.hasPrefix("http://") { return "ws://" + base.dropFirst("http://".count) }
        return base
    }

    private var thumbnailURL: String { node.urls.base + "/static/header.png" }

    /// Shared caches may keep the description briefly; it changes with every post.
    private static let publicCache: HTTPFields = [.cacheControl: "public, max-age=60", .accessControlAllowOrigin: "*"]
}

import Foundation
import Storage

/// Turns stored rows into Mastodon entities as seen by `viewer` (an account, or `nil` for
/// anonymous requests): counts, the viewer's likes and boosts, media, mentions and tags.
/// Every API endpoint renders through this one type, inside one database read.
public struct EntityRenderer {
    /// The node (URLs).
    let node: Node
    /// Who is looking.
    let viewer: Account?
    /// The database connection of the current read.
    let db: Transaction

    /// A renderer for `viewer` inside `db`.
    public init(node: Node, viewer: Account?, db: Transaction) {
        self.node = node
        self.viewer = viewer
        self.db = db
    }

    // MARK: Accounts

    /// The `Account` entity, with `source` when `withSource` (the owner's own view).
    public func account(_ account: Account, withSource: Bool = false) throws -> APIAccount {
        let counts = try self.counts(of: account)
        // Local links are stored as typed (shown as typed in `source`); remote ones arrive as HTML.
        let typed = account.fields.map { APIField(name: $0.name, value: $0.value, verifiedAt: nil) }
        let fields = account.isLocal
            ? account.fields.map { APIField(name: $0.name, value: AccountToAS.linkHTML($0.value), verifiedAt: nil) } : typed
        var entity = APIAccount(
            id: String(account.id), username: account.username, acct: account.acct, displayName: account.displayName,
            firstName: account.firstName, lastName: account.lastName, locked: account.locked, bot: account.bot,
            discoverable: account.discoverable, group: account.actorType == "Group",
            createdAt: Self.day(account.createdAt), note: account.note, url: account.url ?? account.uri, uri: account.uri,
            avatar: profileImage(account, "avatar") ?? node.urls.base + "/static/avatar.png",
            avatarStatic: profileImage(account, "avatar") ?? node.urls.base + "/static/avatar.png",
            header: profileImage(account, "header") ?? node.urls.base + "/static/header.png",
            headerStatic: profileImage(account, "header") ?? node.urls.base + "/static/header.png",
            followersCount: counts.followers, followingCount: counts.following, statusesCount: counts.statuses,
            lastStatusAt: try lastStatusDay(of: account.id), emojis: [], fields: fields, source: nil)
        if withSource {
            let requests = try db.follows.pendingRequestCount(to: account.id)
            entity.source = APISource(note: account.noteSource, fields: typed, privacy: "public", sensitive: false, language: nil,
                                      followRequestsCount: requests, firstName: account.firstName, lastName: account.lastName)
        }
        return entity
    }

    /// Accounts in order.
    public func accounts(_ accounts: [Account]) throws -> [APIAccount] { try accounts.map { try account($0) } }

    /// Posts, followers and following: exact for local accounts; for remote ones the larger of
    /// what the origin reported and what this node knows.
    func counts(of account: Account) throws -> (followers: Int, following: Int, statuses: Int) {
        let known = try db.accounts.entityCounts(of: account.id)
        if account.isLocal { return (known.followers, known.following, known.statuses) }
        return (max(known.followers, account.followersCount), max(known.following, account.followingCount),
                max(known.statuses, account.statusesCount))
    }

    private func lastStatusDay(of accountId: Int64) throws -> String? {
        try db.posts.lastPostDate(of: accountId).map { String(Self.day($0).prefix(10)) }
    }

    // MARK: Statuses

    /// The `Status` entity for `post` (a boost renders the boosted post inside).
    /// - Throws: `NodeError.notFound` when the author is gone (a race with a delete).
    public func status(_ post: Post) throws -> APIStatus {
        guard let author = try db.accounts.author(of: post) else { throw NodeError.notFound("Record not found") }
        var reblog: APIStatus?
        if let originalId = post.reblogOfId {
            guard let original = try db.posts.find(id: originalId) else { throw NodeError.notFound("Record not found") }
            reblog = try status(original)
        }
        let isReblog = reblog != nil
        return APIStatus(
            id: String(post.id), uri: post.uri, url: post.url ?? post.uri, account: try account(author),
            inReplyToId: post.inReplyToId.map(String.init), inReplyToAccountId: post.inReplyToAccountId.map(String.init),
            reblog: reblog, content: isReblog ? "" : post.content, createdAt: Self.timestamp(post.createdAt),
            editedAt: post.editedAt.map(Self.timestamp),
            // As Mastodon's status_stats: only replies everyone may see are counted, so the
            // number never reveals followers-only or direct replies to a viewer who cannot see them.
            repliesCount: try db.posts.publicReplyCount(of: post.id), reblogsCount: try db.posts.boostCount(of: post.id),
            favouritesCount: try db.likes.count(on: post.id),
            viewer: try viewerState(of: post), sensitive: post.sensitive, spoilerText: post.spoilerText,
            visibility: post.visibility.rawValue, mediaAttachments: isReblog ? [] : try media(of: post.id),
            mentions: try mentions(of: post.id), tags: try tags(of: post.id),
            application: post.local && post.accountId == viewer?.id ? APIApplication(name: "Web", website: nil) : nil,
            language: post.language)
    }

    /// Statuses in order, skipping any whose author vanished meanwhile.
    public func statuses(_ posts: [Post]) throws -> [APIStatus] {
        try posts.compactMap { post in
            do { return try status(post) } catch NodeError.notFound { return nil }
        }
    }

    private func viewerState(of post: Post) throws -> APIStatus.ViewerState? {
        guard let viewer else { return nil }
        let target = post.reblogOfId ?? post.id
        return .init(
            reblogged: try db.posts.isBoosted(target, by: viewer.id), favourited: try db.likes.exists(account: viewer.id, post: target))
    }

    /// The photos of a post, in order.
    public func media(of postId: Int64) throws -> [APIMediaAttachment] {
        try db.media.attachments(of: postId).map(attachment)
    }

    /// The `MediaAttachment` entity.
    public func attachment(_ media: MediaAttachment) -> APIMediaAttachment {
        let original = media.width.flatMap { w in media.height.map { APIMediaAttachment.Size(width: w, height: $0) } }
        let small = media.thumbnailWidth.flatMap { w in media.thumbnailHeight.map { APIMediaAttachment.Size(width: w, height: $0) } }
        let focus = media.focusX.flatMap { x in media.focusY.map { APIMediaAttachment.Focus(x: x, y: $0) } }
        // Remote photos are served from this node's cache; `remote_url` keeps the origin's.
        let cached = media.remoteUrl.map { _ in "\(node.urls.base)/media/remote/attachment/\(media.id)" }
        let url = mediaURL(media.filePath) ?? cached
        let preview = mediaURL(media.thumbnailPath) ?? media.remoteUrl.map { _ in "\(node.urls.base)/media/remote/preview/\(media.id)" }
        return APIMediaAttachment(
            id: String(media.id), type: media.type, url: url,
            previewUrl: preview ?? url, remoteUrl: media.remoteUrl, textUrl: nil,
            meta: .init(original: original, small: small ?? original, focus: focus),
            description: media.description.isEmpty ? nil : media.description, blurhash: media.blurhash)
    }

    private func mentions(of postId: Int64) throws -> [APIMention] {
        try db.posts.mentionedAccounts(of: postId).map { APIMention(id: String($0.id), username: $0.username, url: $0.url ?? $0.uri, acct: $0.acct) }
    }

    private func tags(of postId: Int64) throws -> [APITag] {
        try db.posts.hashtagNames(of: postId).map { APITag(name: $0.lowercased(), url: node.urls.tag($0.lowercased()), history: nil, following: nil) }
    }

    // MARK: Notifications

    /// The `Notification` entity; `nil` when what it points at is gone.
    public func notification(_ item: AccountNotification) throws -> APINotification? {
        guard let from = try db.accounts.find(id: item.fromAccountId) else { return nil }
        var status: APIStatus?
        if let postId = item.postId {
            guard let post = try db.posts.find(id: postId) else { return nil }
            status = try self.status(post)
        }
        return APINotification(id: String(item.id), type: item.type.rawValue, createdAt: Self.timestamp(item.createdAt),
                               account: try account(from), status: status, groupKey: "ungrouped-\(item.id)")
    }

    // MARK: Relationships

    /// How the viewer relates to `other`.
    public func relationship(with otherId: Int64) throws -> APIRelationship {
        let me = viewer?.id ?? 0
        func follow(_ a: Int64, _ b: Int64) throws -> FollowState? {
            try db.follows.find(follower: a, target: b)?.state
        }
        let outgoing = try follow(me, otherId)
        let incoming = try follow(otherId, me)
        let domainBlocked = try db.domainBlocks.blocksDomain(ofAccount: otherId)
        return APIRelationship(
            id: String(otherId), following: outgoing == .accepted, showingReblogs: outgoing == .accepted, notifying: false,
            languages: [], followedBy: incoming == .accepted, blocking: try Relationships.blocking(me, otherId, in: db), blockedBy: try Relationships.blocking(otherId, me, in: db),
            muting: false, mutingNotifications: false, requested: outgoing == .pending, requestedBy: incoming == .pending,
            domainBlocking: domainBlocked, endorsed: false, note: "")
    }

    // MARK: Helpers

    /// A local account's stored avatar or cover, or a remote one's through the media cache.
    private func profileImage(_ account: Account, _ kind: String) -> String? {
        let reference = kind == "avatar" ? account.avatarUrl : account.headerUrl
        guard let reference, !reference.isEmpty else { return nil }
        return account.isLocal ? mediaURL(reference) : "\(node.urls.base)/media/remote/\(kind)/\(account.id)"
    }

    /// A public URL for a stored media reference: absolute URLs as they are, data-directory
    /// paths under `/media/`.
    public func mediaURL(_ reference: String?) -> String? { node.urls.mediaURL(reference) }

    /// ISO 8601 with milliseconds in UTC, as Mastodon writes times.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Midnight UTC of the day, as Mastodon gives `Account.created_at`.
    public static func day(_ date: Date) -> String {
        String(date.formatted(Date.ISO8601FormatStyle().year().month().day())) + "T00:00:00.000Z"
    }
}

import Activity
import Core
import Foundation
import Storage

/// Turns stored rows into Mastodon entities as seen by `viewer` (an account, or `nil` for
/// anonymous requests): counts, the viewer's likes and boosts, media, mentions and tags.
/// Every API endpoint renders through this one type, inside one database read. Lists render
/// through `statuses(_:)`, `accounts(_:)` and `notifications(_:)`, which load what the whole
/// list needs in a fixed number of queries (`RenderBatch`); a single entity is a list of one.
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
        var entity = try self.account(account, in: try .accounts([account], db: db))
        if withSource {
            let typed = account.fields.map { APIField(name: $0.name, value: $0.value, verifiedAt: nil) }
            let requests = try db.follows.pendingRequestCount(to: account.id)
            let defaults = try db.postingDefaults.of(account.id)
            entity.source = APISource(note: account.noteSource, fields: typed, privacy: defaults.visibility.rawValue,
                                      sensitive: defaults.sensitive, language: defaults.language, followRequestsCount: requests,
                                      firstName: account.firstName, lastName: account.lastName, discoverable: account.discoverable,
                                      indexable: account.discoverable)
            let role = try db.moderation.roles(of: [account.id])[account.id] ?? .user
            entity.role = ModerationRenderer.role(role)
        }
        return entity
    }

    /// Accounts in order.
    public func accounts(_ accounts: [Account]) throws -> [APIAccount] {
        let batch = try RenderBatch.accounts(accounts, db: db)
        return accounts.map { self.account($0, in: batch) }
    }

    /// The `Account` entity from what `batch` loaded.
    /// With `nested`, an account rendered inside another's `moved` (which is never nested again).
    private func account(_ account: Account, in batch: RenderBatch, nested: Bool = false) -> APIAccount {
        let figures = batch.figures[account.id] ?? AccountFigures()
        let counts = Self.counts(of: account, known: figures.counts)
        // Local links are stored as typed (shown as typed in `source`); remote ones arrive as HTML.
        let typed = account.fields.map { APIField(name: $0.name, value: $0.value, verifiedAt: nil) }
        let fields = account.isLocal
            ? account.fields.map { APIField(name: $0.name, value: AccountToAS.linkHTML($0.value), verifiedAt: nil) } : typed
        var entity = APIAccount(
            id: String(account.id), username: account.username, acct: account.acct, displayName: account.displayName,
            firstName: account.firstName, lastName: account.lastName, locked: account.locked, bot: account.bot,
            discoverable: account.discoverable, group: account.actorType == "Group",
            createdAt: Timestamps.day(account.createdAt), note: account.note, url: account.url ?? account.uri, uri: account.uri,
            avatar: profileImage(account, "avatar") ?? node.urls.base + "/static/avatar.png",
            avatarStatic: profileImage(account, "avatar") ?? node.urls.base + "/static/avatar.png",
            header: profileImage(account, "header") ?? node.urls.base + "/static/header.png",
            headerStatic: profileImage(account, "header") ?? node.urls.base + "/static/header.png",
            followersCount: counts.followers, followingCount: counts.following, statusesCount: counts.statuses,
            lastStatusAt: figures.lastPostAt.map { String(Timestamps.day($0).prefix(10)) }, emojis: [], fields: fields, source: nil)
        if !nested { entity.moved = batch.movedTo[account.id].map { APIMovedAccount(self.account($0, in: batch, nested: true)) } }
        // As Mastodon: the search opt-in for posts; `noindex` is told for local accounts only.
        entity.indexable = account.discoverable
        if account.isLocal {
            entity.noindex = !account.discoverable
            if let role = batch.roles[account.id], role != .user {
                let badge = ModerationRenderer.role(role)
                entity.roles = [APIAccountRole(id: badge.id, name: badge.name, color: badge.color)]
            }
        }
        return entity
    }

    /// Posts, followers and following: exact (`known`, the kept counters) for local accounts;
    /// for remote ones the larger of what the origin reported and what this node knows.
    static func counts(of account: Account, known: AccountEntityCounts) -> (followers: Int, following: Int, statuses: Int) {
        if account.isLocal { return (known.followers, known.following, known.statuses) }
        return (max(known.followers, account.followersCount), max(known.following, account.followingCount),
                max(known.statuses, account.statusesCount))
    }

    // MARK: Statuses

    /// The `Status` entity for `post` (a boost renders the boosted post inside).
    /// - Throws: `NodeError.notFound` when the author is gone (a race with a delete).
    public func status(_ post: Post) throws -> APIStatus {
        try status(post, in: try .statuses([post], viewer: viewer?.id, db: db))
    }

    /// Statuses in order, skipping any whose author vanished meanwhile.
    public func statuses(_ posts: [Post]) throws -> [APIStatus] {
        let batch = try RenderBatch.statuses(posts, viewer: viewer?.id, db: db)
        return try posts.compactMap { post in
            do { return try status(post, in: batch) } catch NodeError.notFound { return nil }
        }
    }

    /// The `Status` entity from what `batch` loaded.
    /// - Throws: `NodeError.notFound` when the author or the boosted post is gone.
    private func status(_ post: Post, in batch: RenderBatch) throws -> APIStatus {
        guard let author = batch.accounts[post.accountId] else { throw NodeError.notFound("Record not found") }
        var reblog: APIStatus?
        if let originalId = post.reblogOfId {
            guard let original = batch.posts[originalId] else { throw NodeError.notFound("Record not found") }
            reblog = try status(original, in: batch)
        }
        let isReblog = reblog != nil
        let counts = batch.postCounts[post.id] ?? PostCounts(postId: post.id)
        var entity = APIStatus(
            id: String(post.id), uri: post.uri, url: post.url ?? post.uri, account: account(author, in: batch),
            inReplyToId: post.inReplyToId.map(String.init), inReplyToAccountId: post.inReplyToAccountId.map(String.init),
            reblog: reblog, content: isReblog ? "" : post.content, createdAt: Timestamps.iso8601(post.createdAt),
            editedAt: post.editedAt.map(Timestamps.iso8601),
            // As Mastodon's status_stats: only replies everyone may see are counted, so the
            // number never reveals followers-only or direct replies to a viewer who cannot see them.
            repliesCount: counts.replies, reblogsCount: counts.reblogs, favouritesCount: counts.favourites,
            viewer: viewerState(of: post, in: batch), sensitive: post.sensitive, spoilerText: post.spoilerText,
            visibility: post.visibility.rawValue, mediaAttachments: isReblog ? [] : (batch.media[post.id] ?? []).map(attachment),
            mentions: (batch.mentions[post.id] ?? []).map { APIMention(id: String($0.id), username: $0.username, url: $0.url ?? $0.uri, acct: $0.acct) },
            tags: (batch.tags[post.id] ?? []).map { APITag(name: $0.lowercased(), url: node.urls.tag($0.lowercased()), history: nil, following: nil) },
            application: post.local && post.accountId == viewer?.id ? APIApplication(name: "Web", website: nil) : nil,
            language: post.language)
        entity.card = isReblog ? nil : batch.cards[post.id].map { APIPreviewCard($0) }
        if !isReblog, let poll = batch.polls[post.id] {
            entity.poll = self.poll(poll, of: post, ownVotes: batch.ownVotes[post.id])
        }
        return entity
    }

    /// The `Poll` entity; `ownVotes` are the viewer's choices. Hidden totals are shown to the
    /// author, and to everyone once it ends.
    func poll(_ poll: Poll, of post: Post, ownVotes: [Int]?) -> APIPoll {
        let expired = poll.isExpired()
        let hidden = poll.hideTotals && !expired && post.accountId != viewer?.id
        let options = poll.options.enumerated().map { index, title in
            APIPoll.Option(title: title, votesCount: hidden ? nil : poll.votes[index])
        }
        return APIPoll(id: String(poll.postId), expiresAt: poll.expiresAt.map(Timestamps.iso8601), expired: expired,
                       multiple: poll.multiple, votesCount: hidden ? 0 : poll.votesCount, votersCount: hidden ? nil : poll.votersCount,
                       options: options, emojis: [], voted: viewer.map { post.accountId == $0.id || ownVotes != nil },
                       ownVotes: viewer.map { _ in ownVotes ?? [] })
    }

    private func viewerState(of post: Post, in batch: RenderBatch) -> APIStatus.ViewerState? {
        guard let viewer else { return nil }
        let target = post.reblogOfId ?? post.id
        // As Mastodon's `pinnable?`: the author's own post, not a boost, not a direct one.
        let pinnable = post.accountId == viewer.id && post.reblogOfId == nil && post.visibility != .direct
        let states = batch.viewerStates
        return .init(reblogged: states.boosted.contains(target), favourited: states.liked.contains(target),
                     bookmarked: states.bookmarked.contains(target), muted: batch.mutedConversations.contains(target),
                     pinned: pinnable ? batch.pinned.contains(post.id) : nil)
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

    // MARK: Notifications

    /// The `Notification` entity; `nil` when what it points at is gone.
    public func notification(_ item: AccountNotification) throws -> APINotification? {
        try notifications([item]).first
    }

    /// Notification entities in order, leaving out those whose sender or post is gone.
    public func notifications(_ items: [AccountNotification]) throws -> [APINotification] {
        let posts = try db.posts.find(ids: Set(items.compactMap(\.postId)))
        let batch = try RenderBatch.statuses(posts, accountIds: Set(items.map(\.fromAccountId)), viewer: viewer?.id, db: db)
        return try items.compactMap { try notification($0, in: batch) }
    }

    private func notification(_ item: AccountNotification, in batch: RenderBatch) throws -> APINotification? {
        guard let from = batch.accounts[item.fromAccountId] else { return nil }
        var status: APIStatus?
        if let postId = item.postId {
            guard let post = batch.posts[postId] else { return nil }
            status = try self.status(post, in: batch)
        }
        return APINotification(id: String(item.id), type: item.type.rawValue, createdAt: Timestamps.iso8601(item.createdAt),
                               account: account(from, in: batch), status: status, groupKey: NotificationGroupKey(item).description)
    }

    /// Grouped notifications (`GET /api/v2/notifications`) with the accounts and posts they refer
    /// to, each once, in the order the groups first name them. Groups whose post or senders are
    /// gone, or whose post matches one of `filters`' `hide` filters, are left out. With
    /// `partialAvatars`, only each group's newest sender is a whole account; the other samples
    /// are partial ones unless whole elsewhere. The `page_*` fields are given only for a page
    /// (`paginated`), as Mastodon gives them.
    func notificationGroups(_ groups: [NotificationGroup], filters: FilterSet, partialAvatars: Bool = false, paginated: Bool = true) throws
        -> APIGroupedNotificationsResults
    {
        let posts = try db.posts.find(ids: Set(groups.compactMap(\.latest.postId)))
        let batch = try RenderBatch.statuses(posts, accountIds: Set(groups.flatMap(\.sampleAccountIds)), viewer: viewer?.id, db: db)
        let rendered = try posts.compactMap { post -> APIStatus? in
            do { return try status(post, in: batch) } catch NodeError.notFound { return nil }
        }
        let shown = Dictionary(filters.apply(to: rendered).map { ($0.id, $0) }) { first, _ in first }
        var results = GroupedResults()
        for group in groups {
            let samples = group.sampleAccountIds.filter { batch.accounts[$0] != nil }
            let status = group.latest.postId.map { shown[String($0)] }
            guard !samples.isEmpty, status != .some(nil) else { continue }
            results.add(group, samples: samples, status: status ?? nil, paginated: paginated)
        }
        return results.entity(partialAvatars: partialAvatars) { account($0, in: batch) } accounts: { batch.accounts[$0] }
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
        let domainBlocked = try db.accountDomainBlocks.hidesDomain(ofAccount: otherId, viewer: me)
        let mute = try db.mutes.active(account: me, target: otherId)
        var relationship = APIRelationship(
            id: String(otherId), following: outgoing == .accepted, showingReblogs: outgoing == .accepted, notifying: false,
            languages: [], followedBy: incoming == .accepted, blocking: try Relationships.blocking(me, otherId, in: db), blockedBy: try Relationships.blocking(otherId, me, in: db),
            muting: mute != nil, mutingNotifications: mute?.hideNotifications ?? false, requested: outgoing == .pending,
            requestedBy: incoming == .pending,
            domainBlocking: domainBlocked, endorsed: false, note: try db.accountNotes.comment(account: me, target: otherId) ?? "")
        relationship.mutingExpiresAt = mute?.expiresAt.map(Timestamps.iso8601)
        return relationship
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
}

/// The groups of a grouped page as they are rendered, and the senders and posts they name.
private struct GroupedResults {
    /// The rendered groups, in order.
    var groups: [APINotificationGroup] = []
    /// Each group's newest sender, in order (may repeat).
    var newestSenders: [Int64] = []
    /// The other senders named, in order (may repeat).
    var otherSenders: [Int64] = []
    /// The posts named, each once, in order.
    var statuses: [APIStatus] = []

    /// Adds `group`, naming `samples` (not empty) and `status`.
    mutating func add(_ group: NotificationGroup, samples: [Int64], status: APIStatus?, paginated: Bool) {
        newestSenders.append(samples[0])
        otherSenders += samples.dropFirst()
        if let status, !statuses.contains(where: { $0.id == status.id }) { statuses.append(status) }
        groups.append(APINotificationGroup(
            groupKey: group.key.description, notificationsCount: group.count, type: group.latest.type.rawValue,
            mostRecentNotificationId: String(group.mostRecentId), pageMinId: paginated ? String(group.pageMinId) : nil,
            pageMaxId: paginated ? String(group.mostRecentId) : nil,
            latestPageNotificationAt: paginated ? Timestamps.iso8601(group.latestAt) : nil,
            sampleAccountIds: samples.map(String.init), statusId: group.latest.postId.map(String.init)))
    }

    /// The entity: senders rendered by `render` (found by `accounts`), each once; with
    /// `partialAvatars` only the newest senders whole and the others partial.
    func entity(partialAvatars: Bool, render: (Account) -> APIAccount, accounts: (Int64) -> Account?) -> APIGroupedNotificationsResults {
        func unique(_ ids: [Int64], except excluded: Set<Int64> = []) -> [APIAccount] {
            var seen = excluded
            return ids.filter { seen.insert($0).inserted }.compactMap(accounts).map(render)
        }
        let whole = partialAvatars ? newestSenders : newestSenders + otherSenders
        return APIGroupedNotificationsResults(
            accounts: unique(whole),
            partialAccounts: partialAvatars ? unique(otherSenders, except: Set(newestSenders)).map(APIPartialAccount.init) : nil,
            statuses: statuses, notificationGroups: groups)
    }
}

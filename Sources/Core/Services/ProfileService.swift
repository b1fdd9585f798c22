import Activity
import Foundation
import Storage

/// Profile edits by local accounts. The saved profile and the `Update` of the actor to every
/// follower's inbox are written in one transaction, so remote copies follow every saved edit.
public struct ProfileService: Sendable {
    package let node: Node

    /// Applies `changes` to `account`'s profile and federates it.
    /// - Parameters:
    ///   - account: The local account editing its own profile.
    ///   - changes: What changes; absent values stay as they are.
    /// - Returns: The saved account.
    /// - Throws: `NodeError.validation` (422) for values too long or unusable images,
    ///   `.notFound` when the account is gone, `.internal` otherwise.
    @discardableResult
    public func update(_ account: Account, with changes: ProfileChanges) async throws(NodeError) -> Account {
        guard account.isLocal else { throw .forbidden("This action is not allowed") }
        try changes.validate()
        let images = node.uploadStore
        var storedAvatar: String?
        var storedHeader: String?
        if let data = changes.avatar { storedAvatar = try await images.storeProfileImage(data, kind: .avatar) }
        if let data = changes.header { storedHeader = try await images.storeProfileImage(data, kind: .header) }
        let (avatar, header) = (storedAvatar, storedHeader)
        var renderedNote: String?
        if let text = changes.note { renderedNote = try await render(note: text) }
        let noteHTML = renderedNote
        let urls = node.urls
        let saved = try await node.write("profile") { db -> Account in
            guard var current = try db.accounts.find(id: account.id) else { throw NodeError.notFound("Record not found") }
            if changes.changesPostingDefaults {
                try db.postingDefaults.set(changes.postingDefaults(from: db.postingDefaults.of(current.id)), of: current.id)
            }
            guard changes.changesProfile else { return current }
            let wasLocked = current.locked
            Self.apply(changes, noteHTML: noteHTML, avatar: avatar, header: header, to: &current)
            current.updatedAt = Date()
            try db.accounts.update(current)
            if wasLocked, !current.locked {
                // Unlocking approves everyone who was waiting, as Mastodon does.
                try InteractionService.acceptPendingRequests(of: current, urls: urls, in: db)
            }
            try Self.recordUpdate(of: current, urls: urls, in: db)
            return current
        }
        node.deliverySignal.notify()
        return saved
    }

    /// Copies the changed values onto `account`.
    package static func apply(_ changes: ProfileChanges, noteHTML: String?, avatar: String?, header: String?, to account: inout Account) {
        if let value = changes.displayName { account.displayName = value }
        if let value = changes.note, let noteHTML {
            account.noteSource = value
            account.note = noteHTML
        }
        if let value = changes.firstName { account.firstName = value }
        if let value = changes.lastName { account.lastName = value }
        if let value = changes.fields { account.fields = value }
        if let value = changes.locked { account.locked = value }
        if let value = changes.discoverable { account.discoverable = value }
        if let value = changes.bot {
            account.bot = value
            // ActivityStreams marks automated actors as `Service` (Mastodon's bot flag).
            account.actorType = value ? "Service" : "Person"
        }
        // An upload sent together with a removal is kept.
        if changes.removesAvatar { account.avatarUrl = nil }
        if changes.removesHeader { account.headerUrl = nil }
        if let avatar { account.avatarUrl = avatar }
        if let header { account.headerUrl = header }
    }

    /// Queues `Update(Person)` to every follower's inbox (shared inboxes collapsed).
    package static func recordUpdate(of account: Account, urls: NodeURLs, in db: Transaction) throws {
        let inboxes = try Outbox.followerInboxes(of: account.id, in: db)
        guard !inboxes.isEmpty else { return }
        let person = try AccountToAS.person(account, urls: urls, in: db)
        let followers = account.followersUrl ?? urls.followers(account.username)
        let update = ActivityBuilder(urls: urls).update(person, actor: account, to: [ActivityStreams.publicAddress], cc: [followers])
        try Outbox.record(update, sender: account, postId: nil, inboxes: inboxes, in: db)
    }

    /// The bio as HTML: paragraphs, links, hashtags, and @mentions of accounts known here.
    private func render(note text: String) async throws(NodeError) -> String {
        let mentions = TextParser.mentions(in: text).prefix(20)
        let known: [Account]
        do {
            known = try await node.database.read { db in
                try mentions.compactMap { mention in
                    let domain = mention.domain.flatMap { $0.lowercased() == node.urls.domain ? nil : $0 }
                    return try db.accounts.find(username: mention.username, domain: domain)
                }
            }
        } catch { throw .internal("reading mentioned accounts: \(error)") }
        return TextParser.html(fromPlainText: text, hashtagURL: { node.urls.tag($0.lowercased()) }, mentionURL: { mention in
            known.first { $0.username.lowercased() == mention.username.lowercased()
                && ($0.domain ?? node.urls.domain) == (mention.domain?.lowercased() ?? node.urls.domain) }?.url
        })
    }

}

extension Node {
    /// Profile edits (and their federation).
    public var profiles: ProfileService { ProfileService(node: self) }
}

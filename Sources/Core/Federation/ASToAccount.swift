import Activity
import Foundation
import Storage

/// Converts a fetched remote actor document into the account row we keep for it.
package enum ASToAccount {
    /// Actor types ActivityPub 5.6 and the fediverse use.
    package static let actorTypes: Set<String> = ["Person", "Service", "Application", "Group", "Organization"]

    /// Everything an actor document sets on its account, computed (capped, sanitised, checked)
    /// before any transaction opens, so a costly document never holds the database's write lock.
    package struct Profile: Sendable {
        package let document: ASObject
        package let username: String?
        package let url: String?
        package let displayName: String
        package let note: String
        package let fields: [ProfileField]
        package let avatarUrl: String?
        package let headerUrl: String?
        package let inboxUrl: String?
        package let sharedInboxUrl: String?
        package let outboxUrl: String?
        package let followersUrl: String?
        package let followingUrl: String?
    }

    /// The profile of `actor`: remote text truncated to `RemoteLimits` and then sanitised, URLs
    /// kept only when they are http(s), and collection and inbox URLs only on the actor's host.
    /// - Throws: `NodeError.badRequest` when the actor has no id or names an inbox on another
    ///   host (deliveries for it would go to a server that does not speak for it).
    package static func profile(of actor: ASObject) throws(NodeError) -> Profile {
        guard let id = actor.id, let host = authority(of: id) else { throw .badRequest("Actor without id") }
        let onHost: (String?) -> String? = { url in
            RemoteLimits.webURL(url).flatMap { authority(of: $0) == host ? $0 : nil }
        }
        if actor.inbox != nil, onHost(actor.inbox) == nil { throw .badRequest("Actor inbox is not on the actor's host") }
        let fields = actor.attachment.lazy.filter { $0.hasType("PropertyValue") }.prefix(RemoteLimits.fields).map {
            ProfileField(name: HTMLSanitizer.plainText(RemoteLimits.truncated($0.name ?? "", to: RemoteLimits.fieldText)),
                         value: HTMLSanitizer.sanitize(RemoteLimits.truncated($0.value ?? "", to: RemoteLimits.fieldText)))
        }
        return Profile(
            document: actor, username: actor.preferredUsername.map { RemoteLimits.truncated($0, to: RemoteLimits.fieldText) },
            url: RemoteLimits.webURL(actor.url) ?? id,
            displayName: RemoteLimits.truncated(actor.name ?? "", to: RemoteLimits.displayName),
            note: HTMLSanitizer.sanitize(RemoteLimits.truncated(actor.summary ?? "", to: RemoteLimits.note)),
            fields: Array(fields), avatarUrl: RemoteLimits.webURL(actor.icon?.url), headerUrl: RemoteLimits.webURL(actor.image?.url),
            inboxUrl: onHost(actor.inbox), sharedInboxUrl: onHost(actor.endpoints?.sharedInbox), outboxUrl: onHost(actor.outbox),
            followersUrl: onHost(actor.followers), followingUrl: onHost(actor.following))
    }

    /// Applies a computed `profile` onto `account` (a new row or the stored one): profile, keys,
    /// endpoints. Cheap: safe inside a write transaction.
    package static func apply(_ profile: Profile, to account: inout Account, now: Date) {
        let actor = profile.document
        account.username = profile.username ?? account.username
        account.url = profile.url
        account.displayName = profile.displayName
        account.note = profile.note
        account.fields = profile.fields
        account.avatarUrl = profile.avatarUrl
        account.headerUrl = profile.headerUrl
        account.locked = actor.manuallyApprovesFollowers ?? false
        account.discoverable = actor.discoverable ?? false
        account.bot = actor.hasType("Service") || actor.hasType("Application")
        account.actorType = actor.type ?? "Person"
        account.inboxUrl = profile.inboxUrl
        account.sharedInboxUrl = profile.sharedInboxUrl
        account.outboxUrl = profile.outboxUrl
        account.followersUrl = profile.followersUrl
        account.followingUrl = profile.followingUrl
        if let key = actor.publicKey {
            account.publicKeyId = key.id
            account.publicKeyPem = key.publicKeyPem
        }
        account.updatedAt = now
        account.fetchedAt = now
    }

    /// `host[:port]` of a URL in its one spelling (`HostAuthority`): the domain part of a remote
    /// handle, and the key of every domain check.
    package static func authority(of url: String) -> String? {
        HostAuthority.of(url)
    }
}

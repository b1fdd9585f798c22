import Activity
import Foundation
import Storage

/// Converts a fetched remote actor document into the account row we keep for it.
enum ASToAccount {
    /// Actor types ActivityPub 5.6 and the fediverse use.
    static let actorTypes: Set<String> = ["Person", "Service", "Application", "Group", "Organization"]

    /// Applies `actor` onto `account` (a new row or the stored one): profile, keys, endpoints.
    /// Remote HTML is sanitised here, once, on the way in.
    static func apply(_ actor: ASObject, to account: inout Account, now: Date) {
        account.username = actor.preferredUsername ?? account.username
        account.url = actor.url ?? actor.id
        account.displayName = actor.name ?? ""
        account.note = HTMLSanitizer.sanitize(actor.summary ?? "")
        account.fields = actor.attachment.filter { $0.hasType("PropertyValue") }.prefix(16).map {
            ProfileField(name: HTMLSanitizer.plainText($0.name ?? ""), value: HTMLSanitizer.sanitize($0.value ?? ""))
        }
        account.avatarUrl = actor.icon?.url
        account.headerUrl = actor.image?.url
        account.locked = actor.manuallyApprovesFollowers ?? false
        account.discoverable = actor.discoverable ?? false
        account.bot = actor.hasType("Service") || actor.hasType("Application")
        account.actorType = actor.type ?? "Person"
        account.inboxUrl = actor.inbox
        account.sharedInboxUrl = actor.endpoints?.sharedInbox
        account.outboxUrl = actor.outbox
        account.followersUrl = actor.followers
        account.followingUrl = actor.following
        if let key = actor.publicKey {
            account.publicKeyId = key.id
            account.publicKeyPem = key.publicKeyPem
        }
        account.updatedAt = now
        account.fetchedAt = now
    }

    /// `host[:port]` of a URL, lowercased: the domain part of a remote handle.
    static func authority(of url: String) -> String? {
        guard let components = URLComponents(string: url), let host = components.host?.lowercased(), !host.isEmpty else { return nil }
        return components.port.map { "\(host):\($0)" } ?? host
    }
}

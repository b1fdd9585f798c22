import Activity
import Foundation
import Storage

/// Converts local accounts to the ActivityPub `Person` other servers read.
package enum AccountToAS {
    /// The actor document of a local account: ActivityPub 4.1 actor with Mastodon's extensions
    /// (`publicKey`, `endpoints.sharedInbox`, `PropertyValue` profile links, `discoverable`, `featured`).
    package static func person(_ account: Account, urls: NodeURLs) -> ASObject {
        // An empty `name` can show as a blank author where receivers display it as given;
        // Mastodon falls back to the username, and so does FedNode.
        let name = account.displayName.isEmpty ? account.username : account.displayName
        var person = ASObject(
            id: account.uri, type: account.actorType, context: ASContext.standard,
            name: name, summary: account.note, url: account.url ?? urls.profile(account.username),
            published: account.createdAt,
            attachment: propertyValues(account),
            icon: imageObject(account.avatarUrl, urls: urls), image: imageObject(account.headerUrl, urls: urls),
            preferredUsername: account.username,
            inbox: account.inboxUrl ?? urls.inbox(account.username),
            outbox: account.outboxUrl ?? urls.outbox(account.username),
            followers: account.followersUrl ?? urls.followers(account.username),
            following: account.followingUrl ?? urls.following(account.username),
            endpoints: ASEndpoints(sharedInbox: urls.sharedInbox),
            publicKey: account.publicKeyPem.map {
                ASPublicKey(id: account.publicKeyId ?? urls.key(account.username), owner: account.uri, publicKeyPem: $0)
            },
            manuallyApprovesFollowers: account.locked, discoverable: account.discoverable,
            indexable: account.discoverable, featured: urls.featured(account.username))
        // vCard terms carry the first and last name, which ActivityStreams has no word for.
        if !account.firstName.isEmpty { person.extra["vcard:given-name"] = .string(account.firstName) }
        if !account.lastName.isEmpty { person.extra["vcard:family-name"] = .string(account.lastName) }
        return person
    }

    /// Profile links as `PropertyValue`s; URLs become links, as Mastodon renders them.
    package static func propertyValues(_ account: Account) -> [ASObject] {
        var fields = account.fields
        if !account.website.isEmpty, !fields.contains(where: { $0.value == account.website }) {
            fields.insert(ProfileField(name: "Website", value: account.website), at: 0)
        }
        return fields.map { field in
            ASObject(type: "PropertyValue", name: field.name, value: linkHTML(field.value))
        }
    }

    /// An `Image` for a stored image reference, with an absolute URL.
    private static func imageObject(_ reference: String?, urls: NodeURLs) -> ASObject? {
        guard let url = urls.mediaURL(reference) else { return nil }
        return ASObject(type: "Image", mediaType: MediaTypes.guess(fromPath: url), url: url)
    }

    /// `value` as an anchor when it is an http(s) URL, escaped text otherwise.
    package static func linkHTML(_ value: String) -> String {
        let escaped = HTMLText.escape(value)
        guard value.hasPrefix("https://") || value.hasPrefix("http://") else { return escaped }
        let shown = HTMLText.escape(value.replacingOccurrences(of: "https://", with: "").replacingOccurrences(of: "http://", with: ""))
        return "<a href=\"\(escaped)\" target=\"_blank\" rel=\"nofollow noopener noreferrer me\" translate=\"no\">\(shown)</a>"
    }
}

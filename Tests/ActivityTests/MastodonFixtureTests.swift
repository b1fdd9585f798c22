import Foundation
import Testing
import Activity

@Suite("Mastodon payloads")
struct MastodonFixtureTests {
    @Test func createNoteCarriesThePostItsMediaTagsAndReply() throws {
        let create = try TestFiles.object("mastodon-create-note.json")
        #expect(create.type == "Create")
        #expect(create.actor?.id == "https://mastodon.example/users/alice")
        #expect(create.isPublic)
        #expect(create.cc == ["https://mastodon.example/users/alice/followers", "https://pixel.example/users/bob"])

        let note = try #require(create.object?.object)
        #expect(note.type == "Note")
        #expect(note.id == "https://mastodon.example/users/alice/statuses/113542186935862871")
        #expect(note.attributedTo == "https://mastodon.example/users/alice")
        #expect(note.inReplyTo == "https://pixel.example/p/bob/771208343011459170")
        #expect(note.url == "https://mastodon.example/@alice/113542186935862871")
        #expect(note.summary == nil)
        #expect(note.sensitive == false)
        #expect(note.published == (try date("2024-11-26T09:14:03Z")))
        #expect(note.content?.hasPrefix("<p><span class=\"h-card\"") == true)
        #expect(note.contentMap?["en"] == note.content)
    }

    @Test func createNoteImageAttachmentKeepsAltTextBlurhashAndSize() throws {
        let note = try #require(try TestFiles.object("mastodon-create-note.json").object?.object)
        let image = try #require(note.attachment.first)
        #expect(note.attachment.count == 1)
        #expect(image.type == "Document")
        #expect(image.mediaType == "image/jpeg")
        #expect(image.url?.hasSuffix("/original/5b0c1e8f3a7d2c4e.jpg") == true)
        #expect(image.name == "Orange sunrise over a frozen lake, pine trees on the far shore")
        #expect(image.blurhash == "UKF~?^of00WB~qj[M{ay9Fay%MfQ%Mj[ofj[")
        #expect(image.focalPoint == [0.0, -0.32])
        #expect(image.width == 1920)
        #expect(image.height == 1280)
    }

    @Test func createNoteTagsAreAMentionAndAHashtag() throws {
        let note = try #require(try TestFiles.object("mastodon-create-note.json").object?.object)
        let mention = try #require(note.tag.first { $0.type == "Mention" })
        let hashtag = try #require(note.tag.first { $0.type == "Hashtag" })
        #expect(mention.href == "https://pixel.example/users/bob")
        #expect(mention.name == "@bob@pixel.example")
        #expect(hashtag.href == "https://mastodon.example/tags/sunrise")
        #expect(hashtag.name == "#sunrise")
    }

    @Test func createNoteCollectionsAndExtensionsSurvive() throws {
        let note = try #require(try TestFiles.object("mastodon-create-note.json").object?.object)
        let replies = try #require(note.replies?.object)
        #expect(replies.id == "https://mastodon.example/users/alice/statuses/113542186935862871/replies")
        #expect(replies.first?.object?.items == [])
        #expect(replies.first?.object?.next?.id?.hasSuffix("only_other_accounts=true&page=true") == true)
        #expect(note.likes?.object?.totalItems == 3)
        #expect(note.shares?.object?.totalItems == 0)
        #expect(note.extra["conversation"] == "tag:pixel.example,2024-11-26:objectId=771208343011459170:objectType=Conversation")
        #expect(note.extra["atomUri"]?.stringValue == note.id)
    }

    @Test func personHasKeyInboxesAndProfileFields() throws {
        let person = try TestFiles.object("mastodon-person.json")
        #expect(person.type == "Person")
        #expect(person.preferredUsername == "alice")
        #expect(person.name == "Alice Lindqvist")
        #expect(person.inbox == "https://mastodon.example/users/alice/inbox")
        #expect(person.outbox == "https://mastodon.example/users/alice/outbox")
        #expect(person.followers == "https://mastodon.example/users/alice/followers")
        #expect(person.following == "https://mastodon.example/users/alice/following")
        #expect(person.featured == "https://mastodon.example/users/alice/collections/featured")
        #expect(person.endpoints?.sharedInbox == "https://mastodon.example/inbox")
        #expect(person.deliveryInbox == "https://mastodon.example/inbox")
        #expect(person.manuallyApprovesFollowers == false)
        #expect(person.discoverable == true)
        #expect(person.indexable == true)
        #expect(person.url == "https://mastodon.example/@alice")
        #expect(person.published == (try date("2022-11-04T00:00:00Z")))

        let key = try #require(person.publicKey)
        #expect(key.id == "https://mastodon.example/users/alice#main-key")
        #expect(key.owner == "https://mastodon.example/users/alice")
        #expect(key.publicKeyPem.hasPrefix("-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAzc+evQS6"))
        #expect(key.isRSA)
    }

    @Test func personPropertyValuesAvatarAndHeader() throws {
        let person = try TestFiles.object("mastodon-person.json")
        let fields = person.attachment.filter { $0.type == "PropertyValue" }
        #expect(fields.map(\.name) == ["Portfolio", "Camera"])
        #expect(fields.last?.value == "Fujifilm X-T5")
        #expect(fields.first?.value?.contains("alice-photo.example") == true)
        #expect(person.icon?.url?.hasSuffix("/avatars/109/287/311/694/183/531/original/6d2f8e8c2b1f4a77.jpg") == true)
        #expect(person.icon?.mediaType == "image/jpeg")
        #expect(person.image?.url?.contains("/accounts/headers/") == true)
        #expect(person.extra["featuredTags"] == "https://mastodon.example/users/alice/collections/tags")
    }

    @Test func deleteCarriesATombstone() throws {
        let delete = try TestFiles.object("mastodon-delete-tombstone.json")
        #expect(delete.type == "Delete")
        #expect(delete.id == "https://mastodon.example/users/alice/statuses/113542186935862871#delete")
        let tombstone = try #require(delete.object?.object)
        #expect(tombstone.type == "Tombstone")
        #expect(delete.object?.id == "https://mastodon.example/users/alice/statuses/113542186935862871")
        #expect(delete.extra["signature"]?["type"] == "RsaSignature2017")
    }

    @Test func acceptEmbedsTheFollow() throws {
        let accept = try TestFiles.object("mastodon-accept-follow.json")
        #expect(accept.type == "Accept")
        #expect(accept.context == .string(ActivityStreams.contextURL))
        let follow = try #require(accept.object?.object)
        #expect(follow.type == "Follow")
        #expect(follow.id == "https://fednode.example/users/carol/follows/7261048736710656")
        #expect(follow.actor?.id == "https://fednode.example/users/carol")
        #expect(follow.object?.id == "https://mastodon.example/users/alice")
    }

    @Test func acceptWithABareFollowID() throws {
        let accept = try TestFiles.object("mitra-accept-bare.json")
        #expect(accept.type == "Accept")
        #expect(accept.object == .id("https://fednode.example/users/carol/follows/7261049921835008"))
        #expect(accept.object?.object == nil)
        #expect(accept.to == ["https://fednode.example/users/carol"])
        #expect(accept.context?.arrayValue?.count == 4)
    }
}

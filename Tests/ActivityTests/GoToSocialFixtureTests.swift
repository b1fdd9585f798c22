import Foundation
import Testing
import Activity

/// GoToSocial writes single values as scalars: `to` is a string, a lone tag is an object.
@Suite("GoToSocial payloads")
struct GoToSocialFixtureTests {
    @Test func followAddressedWithAString() throws {
        let follow = try TestFiles.object("gotosocial-follow.json")
        #expect(follow.type == "Follow")
        #expect(follow.actor == .id("https://gts.example/users/1happyturtle"))
        #expect(follow.object == .id("https://fednode.example/users/carol"))
        #expect(follow.to == ["https://fednode.example/users/carol"])
        #expect(follow.cc == [])
        #expect(!follow.isPublic)
    }

    @Test func likeOfALocalPost() throws {
        let like = try TestFiles.object("gotosocial-like.json")
        #expect(like.type == "Like")
        #expect(like.id == "https://gts.example/users/1happyturtle/liked/01JDPMB0R4W6S8V2E5N7Q3T9XA")
        #expect(like.object?.id == "https://fednode.example/users/carol/statuses/7261052318515200")
    }

    @Test func announceIsPublicThroughAStringTo() throws {
        let announce = try TestFiles.object("gotosocial-announce.json")
        #expect(announce.type == "Announce")
        #expect(announce.isPublic)
        #expect(announce.to == [ActivityStreams.publicAddress])
        #expect(announce.cc.count == 2)
        #expect(announce.published == (try date("2024-11-26T11:30:51Z")))
    }

    @Test func undoEmbedsTheLikeItTakesBack() throws {
        let undo = try TestFiles.object("gotosocial-undo-like.json")
        #expect(undo.type == "Undo")
        let like = try #require(undo.object?.object)
        #expect(like.type == "Like")
        #expect(like.id == "https://gts.example/users/1happyturtle/liked/01JDPMB0R4W6S8V2E5N7Q3T9XA")
        #expect(like.actor?.id == undo.actor?.id)
        #expect(like.object?.id == "https://fednode.example/users/carol/statuses/7261052318515200")
    }

    @Test func deleteWithoutAnIDAndABareObject() throws {
        let delete = try TestFiles.object("gotosocial-delete.json")
        #expect(delete.type == "Delete")
        #expect(delete.id == nil)
        #expect(delete.object == .id("https://gts.example/users/1happyturtle/statuses/01JDPN0W5Y8T2R6C1K9M4F7B3H"))
        #expect(delete.isPublic)
    }

    @Test func updateCarriesTheEditedNote() throws {
        let update = try TestFiles.object("gotosocial-update-note.json")
        #expect(update.type == "Update")
        #expect(update.cc == ["https://gts.example/users/1happyturtle/followers"])
        let note = try #require(update.object?.object)
        #expect(note.updated == (try date("2024-11-26T12:40:00Z")))
        #expect(note.published == (try date("2024-11-26T11:40:00Z")))
        #expect(note.summary == "")
        #expect(note.attachment.isEmpty)
        // A single tag arrives as an object, not an array.
        #expect(note.tag.count == 1)
        #expect(note.tag.first?.type == "Hashtag")
        #expect(note.tag.first?.name == "#turtles")
        #expect(note.content?.contains("<a href=\"https://gts.example/tags/turtles\"") == true)
        #expect(note.extra["interactionPolicy"]?["canReply"]?["always"] == [.string(ActivityStreams.publicAddress)])
    }

    @Test func personWithPropertyValueFieldsAndNoSharedInbox() throws {
        let person = try TestFiles.object("gotosocial-person.json")
        #expect(person.type == "Person")
        #expect(person.preferredUsername == "1happyturtle")
        #expect(person.manuallyApprovesFollowers == true)
        #expect(person.attachment.map(\.name) == ["should you follow me?", "age"])
        #expect(person.attachment.map(\.value) == ["maybe!", "120"])
        #expect(person.endpoints == nil)
        #expect(person.deliveryInbox == "https://gts.example/users/1happyturtle/inbox")
        #expect(person.publicKey?.owner == "https://gts.example/users/1happyturtle")
        #expect(person.publicKey?.isRSA == true)
        #expect(person.icon?.name == "a happy turtle on a rock")
        #expect(person.summary == "<p>i post about things that concern me</p>")
    }
}

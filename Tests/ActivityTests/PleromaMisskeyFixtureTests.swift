import Foundation
import Testing
import Activity

@Suite("Pleroma and Misskey payloads")
struct PleromaMisskeyFixtureTests {
    @Test func pleromaPersonWithLitepubContextAndEmoji() throws {
        let person = try TestFiles.object("pleroma-person.json")
        #expect(person.preferredUsername == "lanodan")
        #expect(person.endpoints?.sharedInbox == "https://pleroma.example/inbox")
        #expect(person.publicKey?.isRSA == true)
        #expect(person.publicKey?.publicKeyPem.hasSuffix("-----END PUBLIC KEY-----\n\n") == true)
        #expect(person.icon?.url == "https://pleroma.example/media/d23cf9b0-5586-4592-aca5-9a52777a6042/avatar_HD.png")
        #expect(person.tag.first?.type == "Emoji")
        #expect(person.tag.first?.icon?.url?.hasSuffix("bzh.png") == true)
        #expect(person.attachment.first?.type == "PropertyValue")
        #expect(person.context?.arrayValue?.last?["@language"] == "und")
    }

    @Test func pleromaNoteKeepsItsOwnContextFieldApartFromAtContext() throws {
        let create = try TestFiles.object("pleroma-create-note.json")
        let note = try #require(create.object?.object)
        // Pleroma's `context` is a conversation id, not JSON-LD: it must not become `@context`.
        #expect(note.context == nil)
        #expect(note.extra["context"] == "https://pleroma.example/contexts/f6244742-0526-4b84-ac4f-ceadf1fb4e56")
        #expect(create.extra["context_id"]?.intValue == 6336544)
        #expect(note.sensitive == nil)  // sent as null
        #expect(note.summary == "")
        #expect(note.inReplyTo == "https://fednode.example/users/carol/statuses/7261052318515200")
        #expect(note.isPublic)
        #expect(note.extra["source"] == "@carol@fednode.example look at this turtle")
    }

    @Test func pleromaDatesWithMicroseconds() throws {
        let note = try #require(try TestFiles.object("pleroma-create-note.json").object?.object)
        let published = try #require(note.published)
        let expected = try date("2024-11-26T10:28:35Z").addingTimeInterval(0.602455)
        #expect(abs(published.timeIntervalSince(expected)) < 0.000_01)
    }

    @Test func pleromaAttachmentURLIsALinkArray() throws {
        let note = try #require(try TestFiles.object("pleroma-create-note.json").object?.object)
        #expect(note.attachment.first?.url == "https://pleroma.example/media/5e2b1a7c-9f3d-4c8e-b6a0-2d4f8e1c7b93/turtle.png")
        #expect(note.attachment.first?.name == "")
    }

    @Test func misskeyNoteWithMFMSourceAndMillisecondDates() throws {
        let create = try TestFiles.object("misskey-create-note.json")
        #expect(create.published == (try date("2024-11-26T13:05:42Z")).addingTimeInterval(0.731))
        let note = try #require(create.object?.object)
        #expect(note.extra["_misskey_content"] == "@carol@fednode.example 湖の朝焼け、すごく綺麗！\n#朝焼け $[x2 🌅]")
        #expect(note.extra["source"]?["mediaType"] == "text/x.misskeymarkdown")
        #expect(note.content?.contains("湖の朝焼け") == true)
        #expect(note.attachment.first?.type == "Document")
        #expect(note.attachment.first?.sensitive == false)
        #expect(note.attachment.first?.name == nil)
        #expect(note.tag.first { $0.type == "Hashtag" }?.name == "#朝焼け")
        #expect(note.isPublic)
    }

    @Test func misskeyReactionLike() throws {
        let like = try TestFiles.object("misskey-like.json")
        #expect(like.type == "Like")
        #expect(like.content == ":blobcat_thumbsup:")
        #expect(like.extra["_misskey_reaction"] == ":blobcat_thumbsup:")
        #expect(like.tag.first?.icon?.mediaType == "image/png")
        #expect(like.to.isEmpty)
    }

    @Test func compactPublicAddressesCount() throws {
        // Compacted JSON-LD (as Misskey's and older Pleroma's processors emit) shortens the
        // Public IRI to `as:Public` or `Public`.
        let note = try ASObject.decode("""
        {"type": "Note", "id": "https://misskey.example/notes/9zc5", "to": "as:Public",
         "_misskey_content": "hi", "cc": ["https://misskey.example/users/9x2/followers"]}
        """)
        #expect(note.isPublic)
        #expect(note.to == ["as:Public"])
        let bare = try ASObject.decode(#"{"type": "Note", "cc": ["Public"]}"#)
        #expect(bare.isPublic)
    }
}

import Foundation
import Testing
import Activity

@Suite("Pixelfed payloads")
struct PixelfedFixtureTests {
    @Test func createNoteWithSeveralPhotos() throws {
        let create = try TestFiles.object("pixelfed-create-note.json")
        #expect(create.type == "Create")
        #expect(create.id == "https://pixel.example/p/bob/771208343011459170/activity")
        #expect(create.actor?.id == "https://pixel.example/users/bob")
        // Pixelfed writes an offset rather than Z.
        #expect(create.published == (try date("2024-11-26T07:41:18Z")))

        let note = try #require(create.object?.object)
        #expect(note.attributedTo == "https://pixel.example/users/bob")
        #expect(note.inReplyTo == nil)
        #expect(note.isPublic)
        #expect(note.attachment.map(\.type) == ["Image", "Image", "Document"])
        #expect(note.attachment.map(\.width) == [2048, 1365, nil])
        #expect(note.attachment.map(\.height) == [1365, 2048, nil])
        #expect(note.attachment.map(\.blurhash) == ["U9F~gc~q9FM{xuRjayt70KIU-;WB9Fj[t7ay", "LEHV6nWB2yk8pyo0adR*.7kCMdnj", nil])
        #expect(note.attachment[0].name == "Mist rising off a still lake at dawn, a wooden jetty in the foreground")
        #expect(note.attachment[2].name == nil)
        #expect(note.attachment[2].mediaType == "image/webp")
    }

    @Test func tagsAndPixelfedExtensions() throws {
        let note = try #require(try TestFiles.object("pixelfed-create-note.json").object?.object)
        #expect(note.tag.filter { $0.type == "Hashtag" }.compactMap(\.name) == ["#sunrise", "#35mm"])
        #expect(note.tag.first { $0.type == "Mention" }?.href == "https://mastodon.example/users/alice")
        #expect(note.extra["commentsEnabled"] == true)
        #expect(note.extra["location"]?["name"] == "Tampere")
        #expect(note.extra["capabilities"]?["reply"]?.stringValue.map(ActivityStreams.isPublic) == true)
    }

    @Test func contextWithSecurityFirstIsKeptAsSent() throws {
        let create = try TestFiles.object("pixelfed-create-note.json")
        let context = try #require(create.context?.arrayValue)
        #expect(context.first == .string(ActivityStreams.securityContextURL))
        #expect(context[2]["pixelfed"] == "http://pixelfed.org/ns#")
    }

    @Test func peerTubeStyleAttributionPicksThePersonNotTheChannel() throws {
        let video = try ASObject.decode("""
        {"type": "Video", "id": "https://tube.example/videos/watch/4a2b",
         "attributedTo": [
           {"type": "Group", "id": "https://tube.example/video-channels/bob_channel"},
           {"type": "Person", "id": "https://tube.example/accounts/bob"}],
         "url": [
           {"type": "Link", "mediaType": "video/mp4", "href": "https://tube.example/static/web-videos/4a2b-720.mp4"},
           {"type": "Link", "mediaType": "text/html", "href": "https://tube.example/w/4a2b"}]}
        """)
        #expect(video.attributedTo == "https://tube.example/accounts/bob")
        #expect(video.url == "https://tube.example/w/4a2b")
    }

    @Test func attributionArrayOfStringsTakesTheFirst() throws {
        let note = try ASObject.decode("""
        {"type": "Note", "attributedTo": ["https://pixel.example/users/bob", "https://pixel.example/groups/7"]}
        """)
        #expect(note.attributedTo == "https://pixel.example/users/bob")
    }
}

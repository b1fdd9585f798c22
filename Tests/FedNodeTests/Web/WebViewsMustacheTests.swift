@testable import Core
import Foundation
import Mustache
import Storage
import Testing
@testable import FedNode

/// The page views give the templates their fields through `MustacheParent` instead of `Mirror`:
/// every stored property must be there under its own name, with the value `Mirror` would have
/// given (an absent optional as `nil`), or a template would silently render it empty.
@Suite("Web views as template models")
struct WebViewsMustacheTests {
    /// The stored properties `Mirror` sees on `view` whose value differs from `child(named:)`,
    /// plus "unknown" if a name that is no property answers.
    static func disagreements(_ view: any MustacheParent) -> [String] {
        func shown(_ value: Any?) -> String {
            guard let value else { return "nil" }
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .optional else { return String(describing: value) }
            return mirror.children.first.map { String(describing: $0.value) } ?? "nil"
        }
        let children = Mirror(reflecting: view).children
        var wrong = children.compactMap { child -> String? in
            guard let label = child.label else { return "unlabelled" }
            return shown(child.value) == shown(view.child(named: label)) ? nil : label
        }
        if children.isEmpty { wrong.append("no properties") }
        if view.child(named: "noSuchField") != nil { wrong.append("unknown") }
        return wrong
    }

    @Test("cards, photos, authors, comments, notifications, fields and page metadata answer every stored property by name")
    func everyPropertyByName() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, _) = try await t.user("alice")
        let (bob, _) = try await t.user("bob")
        let stored = try await t.node.uploadStore.store(try RealImages.png(width: 400, height: 300), focus: nil)
        let photo = try await t.node.database.writeSQL { db in
            var media = MediaAttachment(accountId: alice.id)
            (media.filePath, media.thumbnailPath, media.width, media.height) = (stored.path, stored.thumbnailPath, stored.width, stored.height)
            return try media.inserted(db)
        }
        let post = try await t.node.posts.create(.init(text: "The pier #photos", mediaIds: [photo.id]), by: alice)
        _ = try await t.node.posts.create(.init(text: "Lovely light", inReplyToId: post.id), by: bob)
        _ = try await t.node.posts.create(.init(text: "Words only"), by: bob)

        let bounds = WebFeeds.bounds(maxId: nil)
        let page = try await WebFeeds.page(t.node, viewer: alice, context: "public", comments: true) { db in
            try db.timelines.publicPosts(local: true, onlyMedia: false, viewer: alice.id, page: bounds)
        }
        let card = try #require(page.cards.first { $0.id == String(post.id) })
        let plain = try #require(page.cards.first { $0.photos.isEmpty })
        let comment = try #require(card.latestComments.first)
        let notifications = try await StatusAccess.read(t.node) { db in
            let rows = try db.notifications.page(of: alice.id, types: [], excluding: [], from: nil, page: PageBounds(maxId: nil, limit: 20))
            return try EntityRenderer(node: t.node, viewer: alice, db: db).notifications(rows).map { WebNotification($0) }
        }
        let notification = try #require(notifications.first)
        let field = WebAccountView.Field(name: "Site", value: "<a href=\"https://example.com\">example.com</a>")
        let meta = WebMeta(title: "#photos", description: "Photos", image: nil, url: "https://a.test/tags/photos", activityId: nil)

        let views: [(String, any MustacheParent)] = [
            ("card", card), ("card without photos", plain), ("comment", comment), ("photo", try #require(card.cover)),
            ("author", card.author), ("navigation account", WebAccountView(nav: alice)), ("field", field),
            ("notification", notification), ("meta", meta),
        ]
        for (what, view) in views {
            #expect(Self.disagreements(view).isEmpty, "\(what): \(Self.disagreements(view))")
        }
        #expect(card.child(named: "spoiler") == nil && card.child(named: "boostedBy") == nil, "an absent optional is nil, not a boxed empty value")
        #expect(card.child(named: "hasComments") as? Bool == true)
    }

    @Test("a section over a view renders its fields, and one over an absent optional looks further up the context")
    func rendersThroughTheTemplates() throws {
        let meta = WebMeta(title: "Harbour", description: "Boats", image: nil, url: "https://a.test/p/1", activityId: "https://a.test/p/1")
        var library = MustacheLibrary()
        try library.register("{{#meta}}{{title}}|{{url}}|{{#image}}img:{{.}}{{/image}}{{^image}}no image{{/image}}|{{activityId}}{{/meta}}", named: "t")
        #expect(library.render(["meta": meta], withTemplate: "t") == "Harbour|https://a.test/p/1|no image|https://a.test/p/1")
        try library.register("{{#meta}}{{image}}{{/meta}}", named: "outer")
        #expect(library.render(["meta": meta, "image": "from the page"], withTemplate: "outer") == "from the page",
                "an absent field is looked up in the enclosing context, as Mustache does for a struct's nil")
    }

    @Test("template values are escaped byte by byte: a combining mark cannot carry a quote out of an attribute, other text is escaped as swift-mustache escapes it")
    func escaping() throws {
        // A page template's first line is a standalone section tag: the pragma must not change
        // how it parses (no newline may be added to or taken from the page).
        let template = "{{#page}}\n<a title=\"{{t}}\" href=\"/x\">{{t}}</a>\n{{/page}}\n"
        var ours = MustacheLibrary(), theirs = MustacheLibrary()
        try ours.register(WebTemplates.withEscaping(template), named: "t")
        try theirs.register(template, named: "t")
        for text in ["plain", "a < b > c & d \" e ' f", "Zoë 🐈‍⬛ 写真", "", "&amp; already", "<script>alert(1)</script>"] {
            let model: [String: Any] = ["page": ["t": text]]
            #expect(ours.render(model, withTemplate: "t") == theirs.render(model, withTemplate: "t"), "\(text)")
        }
        let hostile = "x\"\u{301} onmouseover=alert(1) y"
        let html = try #require(ours.render(["page": ["t": hostile]], withTemplate: "t"))
        #expect(html.hasPrefix("<a title="))
        #expect(!html.contains("\"\u{301}") && html.contains("&quot;\u{301} onmouseover"))
        #expect(HTMLText.escape("<\u{338}") == "&lt;\u{338}")
        #expect(HTMLText.escape("nothing to do") == "nothing to do")
    }
}

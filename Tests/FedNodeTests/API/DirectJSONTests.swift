import Activity
@testable import Core
import Foundation
import Storage
import Testing
@testable import FedNode

/// The entities that write their own JSON (`APIDirectJSON`) give the bytes of their Codable
/// encoding: on values with every optional set (a test checks that none is left `nil`, so a
/// property added to an entity but not to its writer shows up here) and on values with none.
@Suite("Client API JSON written directly")
struct DirectJSONTests {
    private static let tricky = "quote \" backslash \\ slash / tab \t newline \n nul \u{0} Zoë 🐈‍⬛ 写真 \u{2028}"

    private static func size(_ width: Int, _ height: Int) -> APIMediaAttachment.Size { .init(width: width, height: height) }

    private static let fullMedia = APIMediaAttachment(
        id: "7", type: "image", url: "https://a.example/m/7.jpg", previewUrl: "https://a.example/m/7s.jpg",
        remoteUrl: "https://b.example/7.jpg", textUrl: "https://a.example/t/7", meta: .init(
            original: size(1920, 1440), small: size(500, 375), focus: .init(x: -0.25, y: 0.5)),
        description: tricky, blurhash: "LEHV6nWB2yk8pyo0adR*.7kCMdnj")

    private static let emptyMedia = APIMediaAttachment(
        id: "8", type: "unknown", url: nil, previewUrl: nil, remoteUrl: nil, textUrl: nil,
        meta: .init(original: nil, small: nil, focus: nil), description: nil, blurhash: nil)

    private static let source = APISource(
        note: tricky, fields: [APIField(name: "site", value: "https://z.example", verifiedAt: "2026-01-02T03:04:05.000Z")],
        privacy: "public", sensitive: true, language: "en", followRequestsCount: 3, firstName: "Zoë", lastName: "Ng",
        discoverable: true, indexable: false, hideCollections: false)

    private static func account(full: Bool, moved: APIAccount? = nil) -> APIAccount {
        var account = APIAccount(
            id: "110", username: "zoe", acct: "zoe@b.example", displayName: tricky, firstName: "Zoë", lastName: "Ng",
            locked: full, bot: !full, discoverable: full, group: false, createdAt: "2025-06-01T00:00:00.000Z", note: "<p>hi</p>",
            url: "https://b.example/@zoe", uri: "https://b.example/users/zoe", avatar: "https://a.example/av", avatarStatic: "https://a.example/av",
            header: "https://a.example/h", headerStatic: "https://a.example/h", followersCount: 100_001, followingCount: -1,
            statusesCount: 0, lastStatusAt: full ? "2026-11-27" : nil,
            emojis: full ? [APIEmoji(shortcode: "cat", url: "https://a.example/cat.png", staticUrl: "https://a.example/cat-s.png", visibleInPicker: true)] : [],
            fields: full ? [APIField(name: "a", value: tricky, verifiedAt: "2026-01-02T03:04:05.000Z")] : [],
            source: full ? source : nil)
        account.moved = moved.map(APIMovedAccount.init)
        if full {
            account.indexable = true
            account.noindex = false
            account.roles = [APIAccountRole(id: "2", name: "Admin", color: "")]
            account.role = APIRole(id: "2", name: "Admin", color: "", permissions: "1048575", highlighted: true)
        }
        return account
    }

    private static let fullTag = APITag(
        name: "photography", url: "https://a.example/tags/photography",
        history: [APITagHistory(day: "1764201600", uses: "12", accounts: "3")], following: true)

    private static let fullCard: APIPreviewCard = {
        var card = APIPreviewCard(PreviewCardFixture.card, history: [APITagHistory(day: "1", uses: "2", accounts: "3")])
        card.language = "en"
        card.authors = [APIEmpty()]
        card.blurhash = "LEHV6nWB2yk8"
        card.publishedAt = "2026-11-01T00:00:00.000Z"
        return card
    }()

    private static let filterResult = APIFilterResult(
        filter: APIFilter(id: "1", title: "spoilers", context: ["home"], expiresAt: "2027-01-01T00:00:00.000Z", filterAction: "warn",
                          keywords: [APIFilterKeyword(id: "2", keyword: "ending", wholeWord: true)],
                          statuses: [APIFilterStatus(id: "3", statusId: "4")]),
        keywordMatches: ["ending"], statusMatches: ["4"])

    private static func status(full: Bool, reblog: APIStatus? = nil, partial: Bool = false) -> APIStatus {
        let viewer = full ? APIStatus.ViewerState(reblogged: true, favourited: false, bookmarked: true, muted: true, pinned: false) : nil
        var status = APIStatus(
            id: "115816483572950798", uri: "https://b.example/s/1", url: full ? "https://b.example/@zoe/1" : nil,
            account: account(full: full, moved: full ? account(full: !partial) : nil),
            inReplyToId: full ? "9" : nil, inReplyToAccountId: full ? "10" : nil, reblog: reblog, content: tricky,
            createdAt: "2025-12-31T22:14:52.799Z", editedAt: full ? "2026-01-01T00:00:00.000Z" : nil,
            repliesCount: 2, reblogsCount: 0, favouritesCount: 1_000_000, viewer: viewer, sensitive: full, spoilerText: full ? "cw" : "",
            visibility: "public", mediaAttachments: full ? (partial ? [fullMedia, emptyMedia] : [fullMedia]) : [],
            mentions: full ? [APIMention(id: "1", username: "al", url: "https://a.example/@al", acct: "al")] : [],
            tags: full ? (partial ? [fullTag, APITag(name: "boats", url: "https://a.example/tags/boats")] : [fullTag]) : [],
            application: full ? APIApplication(name: "Web", website: "https://a.example") : nil, language: full ? "en" : nil,
            text: full ? "source text" : nil)
        if full {
            status.card = fullCard
            status.poll = APIPoll(id: "7", expiresAt: "2026-12-03T00:00:00.000Z", expired: false, multiple: true, votesCount: 3,
                                  votersCount: 2, options: [.init(title: tricky, votesCount: 2), .init(title: "b", votesCount: 1)],
                                  emojis: [APIEmoji(shortcode: "cat", url: "https://a.example/cat.png", staticUrl: "https://a.example/cat-s.png",
                                                    visibleInPicker: true)], voted: true, ownVotes: [0, 1])
            status.filtered = [filterResult]
        }
        return status
    }

    private static var fullStatus: APIStatus { status(full: true, reblog: status(full: true)) }

    /// Paths (`root.a.b`) of the optionals left `nil` and the collections left empty in `value`.
    private static func unset(in value: Any, path: String = "root") -> [String] {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return [path] }
            return unset(in: wrapped, path: path)
        }
        if mirror.displayStyle == .collection {
            if mirror.children.isEmpty { return [path + "[]"] }
            return mirror.children.enumerated().flatMap { unset(in: $0.element.value, path: "\(path)[\($0.offset)]") }
        }
        return mirror.children.flatMap { unset(in: $0.value, path: path + "." + ($0.label ?? "?")) }
    }

    /// The value written directly and through Codable.
    private func both(_ value: some Encodable) throws -> (direct: String, codable: String) {
        (String(decoding: try APISnakeCaseJSON.encode(value), as: UTF8.self),
         String(decoding: try APISnakeCaseJSON.encode(value, direct: false), as: UTF8.self))
    }

    @Test("the fixtures with everything set leave no optional nil and no list empty")
    func fixturesAreFull() {
        // What cannot be set: a status's emoji (always none), a boost inside a boost, a move
        // inside a move.
        let never = ["root.emojis[]", "root._reblog.wrappedValue.value.emojis[]", "root._reblog.wrappedValue.value._reblog.wrappedValue",
                     "root.account.moved.account.moved", "root._reblog.wrappedValue.value.account.moved.account.moved"]
        #expect(Self.unset(in: Self.fullStatus).filter { !never.contains($0) } == [])
        let notification = APINotification(id: "1", type: "favourite", createdAt: "x", account: Self.account(full: true), status: Self.fullStatus, groupKey: "g")
        #expect(Self.unset(in: notification).filter { !never.contains($0.replacingOccurrences(of: "root.status", with: "root")) } == ["root.account.moved"])
        // The check itself finds what is missing.
        #expect(Self.unset(in: Self.emptyMedia).contains("root._url.wrappedValue"))
        #expect(Self.unset(in: Self.status(full: false)).contains("root.mediaAttachments[]"))
    }

    @Test("statuses, boosts, accounts, photos, tags, cards and notifications: the same bytes as through Codable")
    func sameBytes() throws {
        let full = Self.fullStatus
        let empty = Self.status(full: false)
        let values: [any Encodable] = [
            full, empty, Self.status(full: true, reblog: empty, partial: true), [full, empty], [APIStatus](), Self.status(full: false, reblog: empty),
            Self.account(full: true, moved: Self.account(full: true)), Self.account(full: false), [Self.account(full: true)],
            Self.fullMedia, Self.emptyMedia, Self.fullTag, APITag(name: "x", url: "y"), Self.fullCard,
            APIPreviewCard(PreviewCardFixture.card), Self.source, APIEmpty(),
            APIPoll(id: "8", expiresAt: nil, expired: true, multiple: false, votesCount: 0, votersCount: nil, options: [], emojis: [],
                    voted: nil, ownVotes: nil),
            APINotification(id: "1", type: "follow", createdAt: "x", account: Self.account(full: false), status: nil, groupKey: "ungrouped-1"),
            [APINotification(id: "2", type: "favourite", createdAt: "x", account: Self.account(full: true), status: full, groupKey: "g")],
            APIConversation(id: "5", unread: true, accounts: [Self.account(full: true)], lastStatus: full),
            APIContext(ancestors: [full], descendants: [empty, full]),
        ]
        for value in values {
            let (direct, codable) = try both(value)
            #expect(direct == codable)
        }
        // Through Codable means through Codable: the switch is honoured.
        #expect(try both(full).direct.contains(#""in_reply_to_account_id":"10""#))
    }

    @Test("integers of every size are written as Codable writes them")
    func integers() throws {
        for value in [0, 7, -7, 10, 99, -100, Int.max, Int.min, Int.min + 1, 1_000_000_007] {
            var account = Self.account(full: false)
            account.followersCount = value
            let (direct, codable) = try both(account)
            #expect(direct == codable)
            #expect(direct.contains("\"followers_count\":\(value),"))
        }
    }
}

/// A stored preview card with every field set.
private enum PreviewCardFixture {
    static let card: PreviewCard = {
        var card = PreviewCard(id: 1, url: "https://news.example/a?b=c", createdAt: Date(timeIntervalSince1970: 1_764_201_600))
        (card.title, card.description, card.authorName, card.providerName) = ("A \"title\"", "Zoë's page", "Al", "News")
        (card.imageUrl, card.width, card.height) = ("https://news.example/i.jpg", 640, 480)
        return card
    }()
}

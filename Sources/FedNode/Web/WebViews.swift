import Activity
import Core
import Foundation
import Storage

/// An account as pages show it, made from the client API's `Account` entity (so the same
/// counters, images and sanitised bio as the apps see).
struct WebAccountView: Sendable {
    /// Local id.
    let id: String
    /// Display name, or the username when there is none.
    let name: String
    /// `@name` for local accounts, `@name@domain` for remote ones.
    let handle: String
    /// The profile page's path (`/@name` or `/@name@domain`).
    let path: String
    /// Avatar URL.
    let avatar: String
    /// Cover image URL, if any.
    let header: String?
    /// Bio, sanitised HTML.
    let note: String
    /// First and last name, if given.
    let fullName: String?
    /// Whether follows need approval.
    let locked: Bool
    /// Counters.
    let followers: Int, following: Int, posts: Int
    /// Profile links (value as sanitised HTML).
    let fields: [Field]
    /// Whether it is an account of this node.
    let local: Bool
    /// Whether lists show a Follow button for it (suggestions).
    var followButton = false

    /// One profile link.
    struct Field: Sendable {
        /// The label.
        let name: String
        /// The value, sanitised HTML.
        let value: String
    }

    /// The view of an API account.
    init(_ account: APIAccount) {
        id = account.id
        name = account.displayName.isEmpty ? account.username : account.displayName
        handle = "@" + account.acct
        path = "/@" + account.acct
        avatar = account.avatar
        header = account.header.hasSuffix("/static/header.png") ? nil : account.header
        note = HTMLSanitizer.sanitize(account.note)
        let names = [account.firstName, account.lastName].filter { !$0.isEmpty }.joined(separator: " ")
        fullName = names.isEmpty ? nil : names
        locked = account.locked
        followers = account.followersCount
        following = account.followingCount
        posts = account.statusesCount
        fields = account.fields.map { Field(name: $0.name, value: HTMLSanitizer.sanitize($0.value)) }
        local = !account.acct.contains("@")
    }

    /// The navigation bar's view of the signed-in account (only names and paths).
    init(nav account: Account) {
        id = String(account.id)
        name = account.displayName.isEmpty ? account.username : account.displayName
        handle = "@" + account.username
        path = "/@" + account.username
        avatar = ""
        header = nil
        note = ""
        fullName = nil
        locked = account.locked
        fields = []
        local = true
        followers = 0
        following = 0
        posts = 0
    }
}

/// A post as a photo card, made from the client API's `Status` entity.
struct WebCard: Sendable {
    /// Local id.
    let id: String
    /// The detail page's path (`/@acct/ID`).
    let path: String
    /// The author.
    let author: WebAccountView
    /// "5m", "3h", "2d" or a date.
    let time: String
    /// The ISO 8601 time.
    let timeISO: String
    /// The photos, in order.
    let photos: [WebPhoto]
    /// The first photo, for grids.
    let cover: WebPhoto?
    /// Whether there are several photos (the carousel shows its dots).
    let several: Bool
    /// The caption, sanitised HTML with linked hashtags and mentions.
    let caption: String
    /// Content warning, if any.
    let spoiler: String?
    /// Like count and whether the viewer likes it.
    let likes: Int, liked: Bool
    /// Comment count.
    let comments: Int
    /// Whether the viewer wrote it (edit and delete).
    let mine: Bool
    /// The caption as typed (the edit form), for the author.
    let text: String
    /// Who boosted it into the feed, if it came as a boost.
    let boostedBy: WebAccountView?
    /// "Followers only" for restricted posts.
    let audience: String?
    /// Its poll, if it has one.
    let poll: WebPoll?
    /// The newest comments shown under the card.
    var latestComments: [WebCard] = [] { didSet { hasComments = !latestComments.isEmpty } }
    /// Whether `latestComments` has any.
    private(set) var hasComments = false

    /// The card of `status` as `viewer` sees it.
    init(_ status: APIStatus, viewer: Account?, now: Date = Date()) {
        let shown = status.reblog?.value ?? status
        boostedBy = status.reblog == nil ? nil : WebAccountView(status.account)
        let author = WebAccountView(shown.account)
        let photos = shown.mediaAttachments.enumerated().map { WebPhoto($1, index: $0 + 1, count: shown.mediaAttachments.count) }
        let mine = viewer.map { String($0.id) == shown.account.id } ?? false
        id = shown.id
        self.author = author
        path = author.path + "/" + shown.id
        timeISO = shown.createdAt
        time = WebTime.relative(shown.createdAt, now: now)
        self.photos = photos
        cover = photos.first
        several = photos.count > 1
        self.mine = mine
        caption = WebCaptionLinks.localize(HTMLSanitizer.sanitize(shown.content), tags: shown.tags.map(\.name),
                                           mentions: shown.mentions.map { ($0.url, $0.acct) })
        spoiler = shown.spoilerText.isEmpty ? nil : shown.spoilerText
        likes = shown.favouritesCount
        liked = shown.favourited ?? false
        comments = shown.repliesCount
        text = mine ? (shown.text ?? "") : ""
        audience = shown.visibility == "private" ? "Followers only" : shown.visibility == "direct" ? "Mentioned people only" : nil
        poll = shown.poll.map { WebPoll($0, signedIn: viewer != nil, mine: mine, now: now) }
    }
}

/// A post's poll: a form while the viewer may vote, the results otherwise.
struct WebPoll: Sendable {
    /// One choice.
    struct Option: Sendable {
        /// Its index, the value sent when voting.
        let index: Int
        /// The choice.
        let title: String
        /// Its share of the votes, in whole percent (0 while totals are hidden).
        let percent: Int
        /// Whether the viewer picked it.
        let chosen: Bool
    }

    /// The choices, in order.
    let options: [Option]
    /// Whether the viewer may vote now (signed in, not the author, not voted, not ended).
    let canVote: Bool
    /// `checkbox` for a multiple-choice poll, `radio` otherwise.
    let inputType: String
    /// "12 votes · ends in 3h", or "Final results · 12 votes".
    let summary: String

    init(_ poll: APIPoll, signedIn: Bool, mine: Bool, now: Date) {
        let own = Set(poll.ownVotes ?? [])
        let total = poll.options.compactMap(\.votesCount).reduce(0, +)
        options = poll.options.enumerated().map { index, option in
            let votes = option.votesCount ?? 0
            return Option(index: index, title: option.title, percent: total == 0 ? 0 : Int((Double(votes) * 100 / Double(total)).rounded()),
                          chosen: own.contains(index))
        }
        canVote = signedIn && !mine && !poll.expired && poll.voted != true
        inputType = poll.multiple ? "checkbox" : "radio"
        let people = poll.votersCount ?? poll.votesCount
        let votes = people == 1 ? "1 vote" : "\(people) votes"
        if poll.expired {
            summary = "Final results · \(votes)"
        } else if let end = poll.expiresAt {
            summary = "\(votes) · ends \(WebTime.remaining(end, now: now))"
        } else {
            summary = votes
        }
    }
}

/// One photo of a card.
struct WebPhoto: Sendable {
    /// Display image.
    let src: String
    /// Thumbnail (grids).
    let thumb: String
    /// Alt text ("" when the author wrote none).
    let alt: String
    /// Display size, so the page does not jump while images load.
    let width: Int, height: Int
    /// Thumbnail size.
    let thumbWidth: Int, thumbHeight: Int
    /// Position in the post, from 1, and how many there are.
    let index: Int, count: Int

    init(_ media: APIMediaAttachment, index: Int, count: Int) {
        src = media.url ?? media.remoteUrl ?? ""
        thumb = media.previewUrl ?? src
        alt = media.description ?? ""
        width = media.meta.original?.width ?? 1080
        height = media.meta.original?.height ?? 1080
        thumbWidth = media.meta.small?.width ?? width
        thumbHeight = media.meta.small?.height ?? height
        self.index = index
        self.count = count
    }
}

/// Times as photo apps show them.
enum WebTime {
    /// "now", "5m", "3h", "2d", or "Mar 4" (older than a week) for the ISO 8601 `iso`.
    static func relative(_ iso: String, now: Date) -> String {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        guard let date = (try? style.parse(iso)) ?? (try? Date.ISO8601FormatStyle().parse(iso)) else { return "" }
        let seconds = Int(now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "now"
        case ..<3600: return "\(seconds / 60)m"
        case ..<86400: return "\(seconds / 3600)h"
        case ..<(7 * 86400): return "\(seconds / 86400)d"
        default: return date.formatted(.dateTime.month(.abbreviated).day())
        }
    }

    /// How long until `iso`: "in 5m", "in 3h", "in 2d", or "soon" under a minute.
    static func remaining(_ iso: String, now: Date) -> String {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        guard let date = (try? style.parse(iso)) ?? (try? Date.ISO8601FormatStyle().parse(iso)) else { return "" }
        let seconds = Int(date.timeIntervalSince(now))
        switch seconds {
        case ..<60: return "soon"
        case ..<3600: return "in \(seconds / 60)m"
        case ..<86400: return "in \(seconds / 3600)h"
        default: return "in \(seconds / 86400)d"
        }
    }
}

import Core
import Foundation
import Storage

/// The parameters of `POST /api/v1/statuses` and `PUT /api/v1/statuses/:id`, read and checked
/// with Mastodon's rules and messages.
struct StatusForm: Sendable {
    /// Caption as typed.
    var text: String
    /// Media to attach, in order; `nil` on edit when the client sent none (keep the current ones).
    var mediaIds: [Int64]?
    /// Audience (create only); `nil` for the author's default.
    var visibility: Visibility?
    /// The post commented on (create only).
    var inReplyToId: Int64?
    /// Whether the media is hidden behind a warning; `nil` (create only) for the author's default.
    var sensitive: Bool?
    /// Content warning.
    var spoilerText: String
    /// ISO 639 code.
    var language: String?
    /// Alt text and focal point changes to photos of the post (edit only).
    var mediaEdits: [MediaEdit] = []
    /// A poll to go with a new post.
    var poll: PollService.Draft?
    /// When to publish a new post (`scheduled_at`); `nil` for now.
    var scheduledAt: Date?

    /// Most characters in a caption plus its content warning (Mastodon's default).
    static let maxCharacters = 500
    /// Most photos in a post.
    static let maxMedia = 10

    /// The form of a new post.
    /// - Throws: `NodeError.validation` (422) for an unknown visibility, malformed or too many
    ///   media ids, an empty post or one over the character limit.
    static func create(_ params: APIParams) throws(NodeError) -> StatusForm {
        var visibility: Visibility?
        if let raw = params.nonEmpty("visibility") {
            guard let known = Visibility(rawValue: raw) else { throw .validation("'\(raw)' is not a valid visibility") }
            visibility = known
        }
        let spoiler = params.string("spoiler_text") ?? ""
        let form = StatusForm(
            text: params.string("status") ?? "", mediaIds: try mediaIds(params) ?? [], visibility: visibility,
            inReplyToId: try params.recordId("in_reply_to_id"), sensitive: spoiler.isEmpty ? params.bool("sensitive") : true,
            spoilerText: spoiler, language: language(params))
        var withPoll = form
        withPoll.poll = try poll(params)
        withPoll.scheduledAt = try scheduledAt(params)
        try withPoll.validate(hasMedia: !(form.mediaIds ?? []).isEmpty)
        return withPoll
    }

    /// The form of an edit of `post` (which has media when `hasMedia`): what the client left
    /// out stays as it is.
    static func edit(_ params: APIParams, of post: Post, hasMedia: Bool) throws(NodeError) -> StatusForm {
        try params.refuse(["scheduled_at"]) { _ in "A posted post cannot be scheduled; delete it and schedule a new one" }
        try params.refuse(["poll"]) { _ in "A poll cannot be changed once posted on this server" }
        let spoiler = params.string("spoiler_text") ?? post.spoilerText
        let form = StatusForm(
            text: params.string("status") ?? post.text, mediaIds: try mediaIds(params), visibility: post.visibility,
            inReplyToId: post.inReplyToId, sensitive: (params.bool("sensitive") ?? post.sensitive) || !spoiler.isEmpty,
            spoilerText: spoiler, language: language(params) ?? post.language, mediaEdits: try MediaEdit.list(from: params))
        try form.validate(hasMedia: form.mediaIds.map { !$0.isEmpty } ?? hasMedia)
        return form
    }

    /// Checks the media ids name `account`'s own uploads, unattached or (on edit) attached to `postId`.
    /// - Throws: `NodeError.validation` naming the ids that are not.
    func checkMedia(of account: Account, editing postId: Int64? = nil, in db: Transaction) throws {
        guard let mediaIds, !mediaIds.isEmpty else { return }
        let usable = try db.media.usableIds(mediaIds, of: account.id, editing: postId)
        let missing = mediaIds.filter { !usable.contains($0) }
        guard missing.isEmpty else {
            throw NodeError.validation("Media \(missing.map(String.init).joined(separator: ", ")) not found")
        }
    }

    /// `scheduled_at` as ISO 8601 (with or without fractional seconds), when sent.
    /// - Throws: `NodeError.validation` for a time that cannot be read.
    static func scheduledAt(_ params: APIParams) throws(NodeError) -> Date? {
        guard let raw = params.nonEmpty("scheduled_at") else { return nil }
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        guard let date = (try? fractional.parse(raw)) ?? (try? Date.ISO8601FormatStyle().parse(raw)) else {
            throw .validation("Validation failed: Scheduled at is not a valid time")
        }
        return date
    }

    /// The `poll[...]` parameters (`options[]`, `expires_in`, `multiple`, `hide_totals`), when
    /// sent; `PollService` checks them.
    /// - Throws: `NodeError.validation` for a poll without options or a malformed `expires_in`.
    private static func poll(_ params: APIParams) throws(NodeError) -> PollService.Draft? {
        guard params.sent("poll") else { return nil }
        let options = params.strings("poll[options]")
        guard let raw = params.nonEmpty("poll[expires_in]") else { throw .validation("Validation failed: Poll expires at can't be blank") }
        guard let seconds = Int(raw) ?? Double(raw).flatMap({ $0.isFinite && abs($0) < 1e12 ? Int($0) : nil }) else {
            throw .validation("Validation failed: Poll expires at is invalid")
        }
        return PollService.Draft(options: options, expiresIn: seconds, multiple: params.bool("poll[multiple]") ?? false,
                                 hideTotals: params.bool("poll[hide_totals]") ?? false)
    }

    /// Mastodon's checks: not empty without media, within the character limit.
    private func validate(hasMedia: Bool) throws(NodeError) {
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, !hasMedia {
            throw .validation("Validation failed: Text can't be blank")
        }
        if Self.countedLength(text) + Self.countedLength(spoilerText) > Self.maxCharacters {
            throw .validation("Validation failed: Text character limit of \(Self.maxCharacters) exceeded")
        }
    }

    /// Length as Mastodon counts it: each link as 23 characters, a remote mention as its
    /// `@username` only.
    static func countedLength(_ text: String) -> Int {
        let links = text.replacing(/https?:\/\/[^\s<>"]+/, with: String(repeating: "x", count: 23))
        return links.replacing(/(@[A-Za-z0-9_]+)@[A-Za-z0-9.\-]+[A-Za-z0-9]/) { String($0.output.1) }.count
    }

    private static func mediaIds(_ params: APIParams) throws(NodeError) -> [Int64]? {
        // A list of ids only: nested objects (`media_ids[0][x]`) are not ids.
        let nested = params.values.keys.contains { key in
            key.hasPrefix("media_ids[") && key != "media_ids[]" && Int(key.dropFirst("media_ids[".count).dropLast()) == nil
        }
        guard !nested else { throw .validation("media_ids must be a list of media ids") }
        guard params.values["media_ids[]"] != nil || params.values["media_ids"] != nil || !params.strings("media_ids").isEmpty else {
            return nil
        }
        let raw = params.strings("media_ids").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard raw.count <= maxMedia else { throw .validation("Cannot attach more than \(maxMedia) files") }
        let ids = raw.compactMap { Int64($0) }
        guard ids.count == raw.count else {
            throw .validation("Media \(raw.filter { Int64($0) == nil }.joined(separator: ", ")) not found")
        }
        var seen = Set<Int64>()
        return ids.filter { seen.insert($0).inserted }
    }

    private static func language(_ params: APIParams) -> String? {
        guard let raw = params.nonEmpty("language")?.lowercased(), (2...3).contains(raw.count), raw.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return nil
        }
        return raw
    }
}

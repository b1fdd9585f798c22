import Foundation
import ServiceLifecycle
import Storage

/// Posts written now and published later (Mastodon's scheduled statuses): kept with their
/// uploads, moved or cancelled by their author, and published by `ScheduledPublisher` once
/// due, also after a restart, and once however many processes run.
package struct ScheduledPostService: Sendable {
    /// The most posts one account may have scheduled, and on one day (Mastodon's limits).
    package static let maxTotal = 300, maxPerDay = 25

    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Schedules `draft` by `author` for `date`.
    /// - Throws: `NodeError.validation` for a time under the node's `minimumScheduleLead` ahead, over the limits,
    ///   an empty post, a poll `PollService` refuses, or uploads that are not the author's own.
    package func schedule(_ draft: PostService.Draft, at date: Date, by author: Account, now: Date = Date()) async throws(NodeError) -> ScheduledPost {
        try checkTime(date, now: now)
        let text = draft.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty || !draft.mediaIds.isEmpty else { throw .validation("Validation failed: Text can't be blank") }
        try draft.poll?.validate(minimum: node.configuration.minimumPollDuration)
        let post = ScheduledPost(accountId: author.id, scheduledAt: date, params: Self.params(of: draft), mediaIds: draft.mediaIds, createdAt: now)
        try await node.write("scheduled post") { db in
            let usable = try db.media.usableIds(draft.mediaIds, of: author.id, editing: nil)
            let missing = draft.mediaIds.filter { !usable.contains($0) }
            guard missing.isEmpty else { throw NodeError.validation("Media \(missing.map(String.init).joined(separator: ", ")) not found") }
            try Self.checkLimits(of: author.id, on: date, in: db)
            try db.scheduledPosts.insert(post)
        }
        return post
    }

    /// Moves `author`'s scheduled post `id` to `date`.
    /// - Throws: `NodeError.notFound` for a post that is not theirs; `.validation` as `schedule`.
    package func reschedule(_ id: Int64, to date: Date, by author: Account, now: Date = Date()) async throws(NodeError) -> ScheduledPost {
        try checkTime(date, now: now)
        return try await node.write("scheduled post") { db -> ScheduledPost in
            guard var post = try db.scheduledPosts.find(id: id, owner: author.id) else { throw NodeError.notFound("Record not found") }
            try db.scheduledPosts.delete(post.id)
            try Self.checkLimits(of: author.id, on: date, in: db)
            post.scheduledAt = date
            try db.scheduledPosts.insert(post)
            return post
        }
    }

    /// Cancels `author`'s scheduled post `id`; its uploads stay, unattached.
    /// - Throws: `NodeError.notFound` for a post that is not theirs.
    package func cancel(_ id: Int64, by author: Account) async throws(NodeError) {
        try await node.write("scheduled post") { db in
            guard try db.scheduledPosts.find(id: id, owner: author.id) != nil else { throw NodeError.notFound("Record not found") }
            try db.scheduledPosts.delete(id)
        }
    }

    /// Publishes the posts due at `now`, each under an idempotency key of its own, so one that
    /// was published just before a crash is not published twice; one that can no longer be
    /// published (its author gone, a parent deleted, an upload removed) is dropped and logged.
    /// - Returns: The posts published.
    @discardableResult
    package func publishDue(now: Date = Date(), limit: Int = 50) async throws(NodeError) -> [Post] {
        let due = try await node.read("scheduled posts") { db in try db.scheduledPosts.due(at: now, limit: limit) }
        var published: [Post] = []
        for scheduled in due {
            do {
                let author = try await node.read("scheduled post author") { db in try db.accounts.find(id: scheduled.accountId) }
                if let author {
                    var draft = Self.draft(of: scheduled)
                    draft.idempotencyKey = "scheduled:\(scheduled.id)"
                    published.append(try await node.posts.create(draft, by: author))
                }
            } catch {
                node.logger.warning("scheduled post \(scheduled.id) could not be published: \(error.message)")
            }
            try await node.write("scheduled post") { db in _ = try db.scheduledPosts.delete(scheduled.id) }
        }
        return published
    }

    /// The draft a scheduled post publishes.
    package static func draft(of scheduled: ScheduledPost) -> PostService.Draft {
        let params = scheduled.params
        var draft = PostService.Draft(text: params.text, mediaIds: scheduled.mediaIds, visibility: params.visibility.flatMap(Visibility.init),
                                      inReplyToId: params.inReplyToId)
        draft.spoilerText = params.spoilerText
        draft.sensitive = params.sensitive
        draft.language = params.language
        if let options = params.pollOptions, let seconds = params.pollExpiresIn {
            draft.poll = PollService.Draft(options: options, expiresIn: seconds, multiple: params.pollMultiple ?? false,
                                           hideTotals: params.pollHideTotals ?? false)
        }
        return draft
    }

    private static func params(of draft: PostService.Draft) -> ScheduledPost.Params {
        var params = ScheduledPost.Params(text: draft.text, visibility: draft.visibility?.rawValue, spoilerText: draft.spoilerText,
                                          sensitive: draft.sensitive, language: draft.language, inReplyToId: draft.inReplyToId)
        if let poll = draft.poll {
            params.pollOptions = poll.options
            params.pollExpiresIn = poll.expiresIn
            params.pollMultiple = poll.multiple
            params.pollHideTotals = poll.hideTotals
        }
        return params
    }

    private func checkTime(_ date: Date, now: Date) throws(NodeError) {
        let lead = node.configuration.minimumScheduleLead
        guard date.timeIntervalSince(now) >= TimeInterval(lead) else {
            throw .validation("Validation failed: Scheduled at must be at least \(lead) seconds in the future")
        }
    }

    private static func checkLimits(of accountId: Int64, on date: Date, in db: Transaction) throws {
        let counts = try db.scheduledPosts.counts(of: accountId, onDayOf: date)
        guard counts.total < maxTotal else { throw NodeError.validation("Validation failed: You have exceeded the limit of \(maxTotal) scheduled posts") }
        guard counts.sameDay < maxPerDay else {
            throw NodeError.validation("Validation failed: You have exceeded the limit of \(maxPerDay) scheduled posts for that day")
        }
    }
}

/// Publishes scheduled posts when due (`ScheduledPostService.publishDue`): checks every
/// `interval` seconds, in one process of a node at a time, and at start.
public struct ScheduledPublisher: Service {
    /// Seconds between checks: a post appears within this of its time.
    public static let interval: TimeInterval = 10
    package let node: Node

    /// A publisher for `node`.
    public init(node: Node) { self.node = node }

    /// Publishes now and every `interval` until shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await node.runScheduled("scheduled-posts", every: Self.interval) {
                do { try await ScheduledPostService(node: node).publishDue() } catch {
                    node.logger.warning("publishing scheduled posts failed: \(error)")
                }
            }
        }
    }
}

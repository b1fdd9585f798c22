import Activity
import Foundation
import Storage

/// Polls: made with a post, voted on here or from other servers, federated as `Question`s,
/// and ended with a notification to their voters and author.
package struct PollService: Sendable {
    /// The most choices of a poll made here (Mastodon's default, advertised in the instance).
    package static let maxOptions = 4
    /// The longest choice, in characters.
    package static let maxOptionLength = 50
    /// The longest time a poll made here stays open, in seconds (Mastodon's month); the
    /// shortest is the node's `minimumPollDuration`.
    package static let maxExpiry = 2_629_746

    /// A poll as its author asks for it.
    package struct Draft: Sendable {
        /// The choices, in order.
        package var options: [String]
        /// Seconds until voting ends.
        package var expiresIn: Int
        /// Whether several choices may be picked.
        package var multiple = false
        /// Whether the counts stay hidden until it ends.
        package var hideTotals = false

        /// A poll of `options` open for `expiresIn` seconds.
        package init(options: [String], expiresIn: Int, multiple: Bool = false, hideTotals: Bool = false) {
            self.options = options
            self.expiresIn = expiresIn
            self.multiple = multiple
            self.hideTotals = hideTotals
        }

        /// Checks Mastodon's rules: two to `maxOptions` distinct, non-blank choices of at most
        /// `maxOptionLength` characters, open for `minimum` to `maxExpiry` seconds.
        /// - Throws: `NodeError.validation` naming the first rule broken.
        package func validate(minimum: Int) throws(NodeError) {
            let choices = options.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            guard choices.count >= 2 else { throw .validation("Validation failed: Poll options must have more than one item") }
            guard choices.count <= maxOptions else {
                throw .validation("Validation failed: Poll options can't contain more than \(maxOptions) items")
            }
            guard choices.allSatisfy({ !$0.isEmpty }) else { throw .validation("Validation failed: Poll options can't be blank") }
            guard choices.allSatisfy({ $0.count <= maxOptionLength }) else {
                throw .validation("Validation failed: Poll options cannot be longer than \(maxOptionLength) characters each")
            }
            guard Set(choices).count == choices.count else { throw .validation("Validation failed: Poll options contain duplicate items") }
            guard expiresIn >= minimum else { throw .validation("Validation failed: Poll expires at is too soon") }
            guard expiresIn <= maxExpiry else { throw .validation("Validation failed: Poll expires at is too far into the future") }
        }

        /// The poll row of post `postId`, made at `now`.
        package func poll(of postId: Int64, now: Date) -> Poll {
            var poll = Poll(postId: postId, options: options.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) },
                            multiple: multiple, expiresAt: now.addingTimeInterval(TimeInterval(expiresIn)))
            poll.hideTotals = hideTotals
            poll.votersCount = 0
            return poll
        }
    }

    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Votes for `choices` (indices into the options) in the poll of post `postId`, which
    /// `voter` must be able to see. On a local poll the new counts go out as an `Update` of
    /// the `Question`; on a remote one, each choice goes to the poll's author as a `Note`
    /// named after it, as Mastodon sends votes.
    /// - Returns: The post and its poll with the vote counted.
    /// - Throws: `NodeError.notFound` for a post the voter cannot see or one without a poll;
    ///   `.validation` for an ended poll, a second vote, one's own poll, or choices that are
    ///   not one (several, for a multiple-choice poll) of the options.
    package func vote(_ postId: Int64, choices: [Int], by voter: Account, now: Date = Date()) async throws(NodeError) -> (Post, Poll) {
        let urls = node.urls
        let result = try await node.write("poll vote") { db -> (Post, Poll) in
            let post = try PostVisibility.visiblePost(postId, viewer: voter, in: db)
            guard post.reblogOfId == nil, let poll = try db.polls.find(post: post.id) else { throw NodeError.notFound("Record not found") }
            guard !poll.isExpired(at: now) else { throw NodeError.validation("Validation failed: The poll has already ended") }
            guard post.accountId != voter.id else { throw NodeError.validation("Validation failed: You cannot vote in your own polls") }
            guard try !db.polls.hasVoted(voter.id, in: post.id) else {
                throw NodeError.validation("Validation failed: You have already voted on this poll")
            }
            let picked = Array(Set(choices)).sorted()
            guard !picked.isEmpty, picked.allSatisfy(poll.options.indices.contains), poll.multiple || picked.count == 1 else {
                throw NodeError.validation("Validation failed: Choices are not valid for this poll")
            }
            guard let author = try db.accounts.find(id: post.accountId) else { throw NodeError.notFound("Record not found") }
            let uris = picked.map { _ in "\(voter.uri)#votes/\(Snowflake.next())" }
            let counted = try db.polls.vote(poll, by: voter.id, choices: picked, uris: uris, at: now)
            if author.isLocal {
                try Self.sendUpdate(of: post, by: author, urls: urls, in: db)
            } else {
                for (choice, uri) in zip(picked, uris) {
                    let note = ASObject(id: uri, type: "Note", to: [author.uri], attributedTo: voter.uri, name: poll.options[choice],
                                        inReplyTo: post.uri)
                    let create = ASObject(id: uri + "/activity", type: "Create", actor: .id(voter.uri), object: .object(note),
                                          to: [author.uri])
                    try Outbox.record(create, sender: voter, postId: nil, inboxes: Outbox.inbox(of: author), in: db)
                }
            }
            return (post, counted)
        }
        node.deliverySignal.notify()
        return result
    }

    /// Counts a vote another server sent for one of our polls: `name` is the choice as the
    /// poll shows it, `uri` the vote's id. Votes after the end, for unknown choices, by the
    /// author, or a second time (a second choice of a single-choice poll) are dropped.
    /// - Returns: Whether the vote was counted.
    package static func receiveVote(_ name: String, uri: String?, for post: Post, from voter: Account, urls: NodeURLs,
                                    in db: Transaction, now: Date = Date()) throws -> Bool {
        guard post.local, voter.id != post.accountId, let poll = try db.polls.find(post: post.id), !poll.isExpired(at: now),
              let choice = poll.options.firstIndex(of: name) else { return false }
        if !poll.multiple, try db.polls.hasVoted(voter.id, in: post.id) { return false }
        let counted = try db.polls.vote(poll, by: voter.id, choices: [choice], uris: [uri], at: now)
        guard counted != poll, let author = try db.accounts.find(id: post.accountId) else { return false }
        try sendUpdate(of: post, by: author, urls: urls, in: db)
        return true
    }

    /// Queues an `Update` of local post `post`'s `Question`, with its counts as stored, to its
    /// author's followers and to the servers of everyone who voted.
    package static func sendUpdate(of post: Post, by author: Account, urls: NodeURLs, in db: Transaction) throws {
        var inboxes = post.visibility == .direct ? [] : try Outbox.followerInboxes(of: author.id, in: db)
        inboxes += try db.polls.remoteVoterInboxes(of: post.id)
        let involved = try db.accounts.remoteInvolved(inPost: post.id, inReplyToAccountId: post.inReplyToAccountId)
        inboxes += involved.flatMap(Outbox.inbox(of:))
        guard !inboxes.isEmpty else { return }
        let question = PostToAS(urls: urls).note(post, parts: try .read(post, in: db))
        let update = ActivityBuilder(urls: urls).update(question, actor: author, to: question.to, cc: question.cc)
        try Outbox.record(update, sender: author, postId: nil, inboxes: Array(Set(inboxes)).sorted(), in: db)
    }

    /// Ends the polls whose time is up: each local voter, and the author of a local poll, gets
    /// a `poll` notification, once whichever process gets there first; a local poll's final
    /// counts go out as an `Update` marked `closed`.
    /// - Returns: How many polls ended.
    @discardableResult
    package func endDue(now: Date = Date(), limit: Int = 100) async throws(NodeError) -> Int {
        let urls = node.urls
        let ended = try await node.write("poll end") { db -> Int in
            var count = 0
            for var poll in try db.polls.endedUnnotified(at: now, limit: limit) {
                guard try db.polls.markEndNotified(poll.postId), let post = try db.posts.find(id: poll.postId) else { continue }
                count += 1
                if poll.closedAt == nil {
                    poll.closedAt = poll.expiresAt ?? now
                    try db.polls.save(poll, at: now)
                }
                var recipients = try db.polls.localVoters(of: post.id)
                if post.local { recipients.append(post.accountId) }
                for recipient in Set(recipients) {
                    try db.notifications.add(AccountNotification(accountId: recipient, fromAccountId: post.accountId, type: .poll,
                                                                 postId: post.id, createdAt: now))
                }
                if post.local, let author = try db.accounts.find(id: post.accountId) {
                    try Self.sendUpdate(of: post, by: author, urls: urls, in: db)
                }
            }
            return count
        }
        if ended > 0 { node.deliverySignal.notify() }
        return ended
    }
}

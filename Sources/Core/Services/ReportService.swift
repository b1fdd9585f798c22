import Activity
import Foundation
import Storage

/// Reports: made by local users (optionally forwarded to the reported account's server as a
/// `Flag` from the instance actor, as Mastodon forwards them), and received from other servers.
package struct ReportService: Sendable {
    /// Categories Mastodon defines.
    package static let categories: Set<String> = ["spam", "legal", "violation", "other"]
    /// The longest comment kept.
    package static let maxComment = 1_000
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// What a person asks to report.
    package struct Draft: Sendable {
        package var target: Account
        package var statusIds: [Int64]
        package var comment: String
        package var category: String
        package var ruleIds: [Int64]
        package var forward: Bool

        /// Each part as given.
        package init(target: Account, statusIds: [Int64], comment: String, category: String, ruleIds: [Int64], forward: Bool) {
            self.target = target
            self.statusIds = statusIds
            self.comment = comment
            self.category = category
            self.ruleIds = ruleIds
            self.forward = forward
        }
    }

    /// Stores `draft` by `reporter`; forwards it when asked and the account is remote.
    /// - Throws: 422 for posts that are not the reported account's, rules that do not exist, a
    ///   comment too long or an unknown category; 404 when reporting oneself.
    package func report(_ draft: Draft, by reporter: Account, now: Date = Date()) async throws(NodeError) -> Report {
        guard Self.categories.contains(draft.category) else { throw .validation("Validation failed: Category is not included in the list") }
        guard draft.comment.count <= Self.maxComment else { throw .validation("Validation failed: Comment is too long (maximum is 1000 characters)") }
        guard draft.target.id != reporter.id else { throw .validation("Validation failed: You cannot report yourself") }
        let forward = draft.forward && !draft.target.isLocal
        let flagId = "\(node.urls.base)/flags/\(Snowflake.next())"
        let instanceActor = node.instanceActor.id
        let report = try await node.write("report") { db -> Report in
            // In id order, as the report lists them (the lookup's order is the id list's).
            let posts = try db.posts.find(ids: Array(Set(draft.statusIds))).sorted { $0.id < $1.id }
            guard posts.count == Set(draft.statusIds).count, posts.allSatisfy({ $0.accountId == draft.target.id }) else {
                throw NodeError.validation("Validation failed: Statuses must belong to the reported account")
            }
            let known = Set(try db.moderation.rules().compactMap(\.id))
            guard draft.ruleIds.allSatisfy(known.contains) else { throw NodeError.validation("Validation failed: Rules are not valid") }
            let row = Report(accountId: reporter.id, targetAccountId: draft.target.id, comment: draft.comment,
                             category: draft.category, ruleIds: draft.ruleIds, statusIds: posts.map(\.id), forwarded: forward, at: now)
            guard let stored = try db.moderation.addReport(row) else { throw NodeError.internal("report not stored") }
            if forward, let inbox = draft.target.deliveryInbox {
                let flag = Self.flag(id: flagId, actor: instanceActor, target: draft.target, postURIs: posts.map(\.uri), comment: draft.comment)
                _ = try db.deliveries.enqueue(activityUri: flagId, payload: flag.encoded(),
                                              accountId: InstanceActor.deliveryAccountId, inboxes: [inbox])
            }
            return stored
        }
        if forward { node.deliverySignal.notify() }
        return report
    }

    /// A `Flag` of `target` and its posts `postURIs`, sent by the instance actor `actor`, in
    /// Mastodon's shape: `object` lists the account, then the posts.
    package static func flag(id: String, actor: String, target: Account, postURIs: [String], comment: String) -> ASObject {
        let objects = ([target.uri] + postURIs).map(JSONValue.string)
        return ASObject(id: id, type: "Flag", context: ASContext.standard, actor: .id(actor), content: comment,
                        extra: ["object": .array(objects)])
    }
}

import Activity
import Foundation
import Storage

/// `Flag` from another server (Mastodon forwards a report from its instance actor): stored as a
/// report of the local account it names, with the local posts of that account it names, for
/// this node's moderators. Servers whose reports the node rejects (`reject_reports`) are ignored.
package struct FlagHandler: InboxHandler {
    package func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        let ids = context.activity.objectIds.isEmpty ? [context.objectId].compactMap { $0 } : context.activity.objectIds
        let locals = ids.compactMap { context.node.urls.canonicalLocal($0) }
        guard !locals.isEmpty else { return .ignored("Flag names nothing on this node") }
        let reporter = context.actor
        // Mastodon sends the reporter's comment as plain text; it is kept as written (clients
        // and pages escape it), only bounded.
        let comment = String((context.activity.content ?? "").prefix(ReportService.maxComment))
        let stored = try await context.write { db -> Bool? in
            if let domain = reporter.domain, try db.moderation.domainBlocks(covering: domain).contains(where: \.rejectReports) {
                return nil
            }
            let accounts = try locals.compactMap { try db.accounts.find(uri: $0) }.filter(\.isLocal)
            let posts = try locals.compactMap { try db.posts.find(uri: $0) }.filter(\.local)
            guard let target = accounts.first ?? posts.first.flatMap({ post in try? db.accounts.find(id: post.accountId) }) else {
                return false
            }
            let reported = posts.filter { $0.accountId == target.id }.map(\.id)
            let report = Report(accountId: reporter.id, targetAccountId: target.id, comment: comment, category: "other",
                                statusIds: reported, forwarded: true, uri: context.activity.id)
            _ = try db.moderation.addReport(report)
            return true
        }
        switch stored {
        case nil: return .ignored("reports from \(reporter.domain ?? "") are rejected")
        case false: return .ignored("Flag of an unknown local account")
        default: return .processed
        }
    }
}

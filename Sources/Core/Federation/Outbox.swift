import Activity
import Foundation
import Storage

/// Records outgoing activities and their deliveries, always inside the transaction of the
/// action that caused them, so an action is never stored without its deliveries nor delivered
/// without being stored. Callers notify `node.deliverySignal` after commit.
package enum Outbox {
    /// Stores `activity` in the sender's outbox and queues one delivery per distinct inbox.
    /// - Parameters:
    ///   - activity: The activity; its `id` must be set.
    ///   - sender: The local account that sends and signs it.
    ///   - postId: The post it concerns, if any (its outbox rows go with it).
    ///   - inboxes: Remote inboxes to deliver to (local ones are skipped by the caller).
    ///   - db: The action's write transaction.
    package static func record(_ activity: ASObject, sender: Account, postId: Int64?, inboxes: [String], in db: Transaction) throws {
        var document = activity
        if document.context == nil { document.context = ASContext.standard }
        let payload = document.encoded()
        let uri = document.id ?? ""
        try db.deliveries.addToOutbox(
            OutboxActivity(uri: uri, accountId: sender.id, type: document.type ?? "", postId: postId, payload: payload))
        try db.deliveries.enqueue(activityUri: uri, payload: payload, accountId: sender.id, inboxes: inboxes)
    }

    /// Delivery inboxes of `accountId`'s remote followers, shared inboxes collapsing each node.
    package static func followerInboxes(of accountId: Int64, in db: Transaction) throws -> [String] {
        try db.follows.acceptedFollowerInboxes(of: accountId)
    }

    /// The inbox to reach one remote account (shared when it has one), `nil` for local accounts.
    package static func inbox(of account: Account) -> [String] {
        guard !account.isLocal, let inbox = account.deliveryInbox else { return [] }
        return [inbox]
    }
}

import Activity
import Foundation
import GRDB

extension Delivery {
    /// Queues one delivery of `payload` per distinct inbox, inside the caller's transaction
    /// (so the action and its deliveries land together). Repeats of the same activity to the
    /// same inbox are ignored. Inboxes on a domain the node does not federate with (blocked, or not
    /// allowed in allow-list mode; `FederationPolicy`) get nothing.
    /// - Parameters:
    ///   - activityUri: The activity's id.
    ///   - payload: The JSON body.
    ///   - accountId: The local account whose key signs the requests.
    ///   - inboxes: Target inboxes; shared inboxes should already have replaced personal ones.
    ///   - db: The open write transaction.
    /// - Returns: How many deliveries were queued.
    @discardableResult
    public static func enqueue(activityUri: String, payload: Data, accountId: Int64, inboxes: [String], in db: SQLSession) throws -> Int {
        var queued = 0
        var seen = Set<String>()
        let policy = try FederationPolicy.load(in: db)
        for inbox in inboxes where seen.insert(inbox).inserted {
            guard let domain = DeliveryDomain.name(of: inbox) else { continue }
            if !policy.federates(with: domain) { continue }
            let delivery = Delivery(activityUri: activityUri, accountId: accountId, inboxUrl: inbox, domain: domain, payload: payload)
            try delivery.insert(db, onConflict: .ignore)
            queued += db.changesCount
        }
        return queued
    }
}

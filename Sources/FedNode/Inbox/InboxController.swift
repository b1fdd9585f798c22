import Activity
import Foundation
import GRDB
import Hummingbird
import Signatures
import Storage

/// `POST /inbox` and `POST /users/NAME/inbox`: limits, signature, deduplication, durable
/// queueing, then `202 Accepted` (DESIGN.md, "One inbound activity").
struct InboxController {
    /// Largest accepted body.
    static let maxBodyBytes = 1024 * 1024
    /// Deepest accepted JSON nesting.
    static let maxJSONDepth = 32
    let node: Node
    var authenticator: InboxAuthenticator { InboxAuthenticator(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("inbox", use: sharedInbox)
        router.post("users/:username/inbox", use: personalInbox)
    }

    /// The shared inbox.
    @Sendable func sharedInbox(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await accept(request, context: context, recipient: nil)
    }

    /// One account's inbox; 404 for unknown accounts.
    @Sendable func personalInbox(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let recipient = try node.accounts.local(try context.parameters.require("username"))
        return try await accept(request, context: context, recipient: recipient)
    }

    private func accept(_ request: Request, context: NodeRequestContext, recipient: Account?) async throws -> Response {
        try checkContentType(request)
        let body = try await readBody(request)
        guard JSONLimits.depth(of: body) <= Self.maxJSONDepth else { throw NodeError.badRequest("JSON nested too deeply") }
        let activity: ASObject
        do { activity = try ASObject.decode(from: Data(body)) } catch { throw NodeError.badRequest("Invalid JSON activity") }
        guard let actorId = activity.actor?.id else { throw NodeError.badRequest("Activity without actor") }
        let signer = try await authenticator.authenticate(request, body: body, activity: activity, actorId: actorId)
        guard let signer else { return Response(status: .accepted) }  // a Delete of an actor we never knew
        try checkOrigin(activity, actorId: actorId)
        try await enqueue(activity, payload: Data(body), signer: signer, recipient: recipient)
        node.inboxSignal.notify()
        return Response(status: .accepted)
    }

    /// Nobody creates, updates or deletes objects that live on another host.
    private func checkOrigin(_ activity: ASObject, actorId: String) throws {
        guard ["Create", "Update", "Delete"].contains(activity.type ?? ""), let objectId = activity.object?.id else { return }
        guard ASToAccount.authority(of: objectId) == ASToAccount.authority(of: actorId) else {
            throw NodeError.forbidden("\(activity.type ?? "Activity") of an object from another host")
        }
        if let author = activity.object?.object?.attributedTo, author != actorId {
            throw NodeError.forbidden("\(activity.type ?? "Activity") of an object attributed to someone else")
        }
    }

    private func checkContentType(_ request: Request) throws {
        let type = request.headers[.contentType] ?? ""
        guard ActivityStreams.isActivityPubMediaType(type) || type.lowercased().hasPrefix("application/json") else {
            throw NodeError.unsupportedMediaType("Content-Type must be application/activity+json or application/ld+json")
        }
    }

    private func readBody(_ request: Request) async throws -> [UInt8] {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > Self.maxBodyBytes {
            throw NodeError.payloadTooLarge("Activity larger than 1 MiB")
        }
        do {
            let buffer = try await request.body.collect(upTo: Self.maxBodyBytes)
            return Array(buffer: buffer)
        } catch {
            throw NodeError.payloadTooLarge("Activity larger than 1 MiB")
        }
    }

    /// Stores the activity in the inbox queue unless its id was seen before (then it is
    /// acknowledged again without reprocessing).
    private func enqueue(_ activity: ASObject, payload: Data, signer: Account, recipient: Account?) async throws {
        let item = InboxItem(activityId: activity.id, actorUri: signer.uri, recipientAccountId: recipient?.id, payload: payload)
        let domain = DeliveryDomain.name(of: signer.uri)
        let revived = try await node.database.pool.write { db -> Bool in
            // A domain that just sent us a verified activity is up: deliveries to it resume now
            // rather than at the next hourly probe. Healthy domains have no row, so this is one
            // primary-key lookup.
            var revived = false
            if let domain, let health = try DeliveryDomain.fetchOne(db, key: domain), health.unavailable || health.failingSince != nil {
                revived = try DeliveryDomain.markAvailable(domain, at: Date(), in: db)
            }
            if let id = activity.id {
                let seen = SeenActivity(uri: id, type: activity.type, outcome: "queued")
                try seen.insert(db, onConflict: .ignore)
                guard db.changesCount > 0 else { return revived }
            }
            try item.insert(db)
            return revived
        }
        if revived { node.deliverySignal.notify() }
    }
}

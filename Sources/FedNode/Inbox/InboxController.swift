import Activity
import Core
import Foundation
import Hummingbird
import Signatures
import Storage

/// `POST /inbox` and `POST /users/NAME/inbox`: limits, signature, deduplication, durable
/// queueing, then `202 Accepted`; the worker applies the activity later (`InboxWorker`).
struct InboxController {
    /// Largest accepted body.
    static let maxBodyBytes = 1024 * 1024
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
        let recipient = try await node.accounts.local(try context.parameters.require("username"))
        return try await accept(request, context: context, recipient: recipient)
    }

    private func accept(_ request: Request, context: NodeRequestContext, recipient: Account?) async throws -> Response {
        var actorId: String?
        do {
            try checkContentType(request)
            let body = try await readBody(request)
            let activity: ASObject
            do { activity = try ASObject.decode(from: Data(body), limits: .inbox) } catch {
                throw NodeError.refusedJSON(error, invalid: "Invalid JSON activity")
            }
            guard let actor = activity.actor?.id else { throw NodeError.badRequest("Activity without actor") }
            actorId = actor
            // Cheap checks first: nothing is fetched for an activity that would be refused anyway.
            try InboxOrigin.check(activity, actorId: actor)
            try await checkObjectDomains(activity, actorId: actor)
            let signer = try await authenticator.authenticate(request, body: body, activity: activity, actorId: actor)
            guard let signer else {  // a Delete of an actor we never knew
                node.metrics.inbox.accepted(.skipped)
                return Response(status: .accepted)
            }
            let queued = try await enqueue(activity, payload: body, signer: signer, recipient: recipient)
            node.metrics.inbox.accepted(queued ? .queued : .duplicate)
            node.inboxSignal.notify()
            return Response(status: .accepted)
        } catch let error as NodeError {
            node.metrics.inbox.refused(status: Int(error.status.code))
            // Every refusal says why, with who asked, so an admin can answer "why was this dropped?".
            node.logger.notice("inbox request refused", metadata: [
                "status": "\(error.status.code)", "reason": "\(Self.reason(error))", "actor": "\(actorId ?? "-")",
                "keyId": "\(Self.keyId(in: request) ?? "-")", "path": "\(request.uri.path)",
            ])
            throw error
        } catch {
            if !(error is CancellationError) { node.metrics.inbox.refused(status: 500) }
            throw error
        }
    }

    /// Objects from a blocked domain are refused whoever sends them (a boost or a reply
    /// relayed by another server included). The actor's own host is checked with its key.
    private func checkObjectDomains(_ activity: ASObject, actorId: String) async throws(NodeError) {
        let actorHost = ASToAccount.authority(of: actorId)
        let hosts = Set([activity.object?.id, activity.object?.object?.attributedTo, activity.object?.object?.actor?.id]
            .compactMap { $0 }.filter { !node.urls.isLocal($0) }.compactMap(ASToAccount.authority(of:)))
            .subtracting([actorHost].compactMap { $0 })
        try await node.refuseBlocked(hosts) { _ in "Object from a blocked domain" }
    }

    /// What a log line says about `error`: its message, or the internal detail clients never see.
    static func reason(_ error: NodeError) -> String {
        if case .internal(let detail) = error { return detail }
        return error.message
    }

    /// The `keyId` a request's `Signature` or `Signature-Input` header names, for logs only.
    static func keyId(in request: Request) -> String? {
        let header = request.headers[.init("signature")!] ?? request.headers[.init("signature-input")!] ?? ""
        guard let range = header.range(of: "keyid=\"", options: .caseInsensitive) else { return nil }
        let rest = header[range.upperBound...]
        return String(rest.prefix { $0 != "\"" }.prefix(300))
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

    /// Stores the activity in the inbox queue unless the sender's origin sent this id before
    /// (then it is acknowledged again without reprocessing). An activity without id is
    /// de-duplicated by a digest of its body, so replaying it changes nothing.
    /// - Returns: `true` when it was queued, `false` for a redelivery.
    private func enqueue(_ activity: ASObject, payload body: [UInt8], signer: Account, recipient: Account?) async throws -> Bool {
        let payload = Data(body)
        let item = InboxItem(activityId: activity.id, actorUri: signer.uri, recipientAccountId: recipient?.id, payload: payload)
        let origin = ASToAccount.authority(of: signer.uri) ?? ""
        let seen = SeenActivity(origin: origin, uri: activity.id ?? InboxOrigin.digestKey(body), type: activity.type, outcome: "queued")
        let domain = DeliveryDomain.name(of: signer.uri)
        // The 202 is a promise: the row is committed with a full sync, shared with the other
        // activities accepted in the same moment (group commit), so durability costs one fsync
        // per group rather than one per activity.
        let (revived, queued) = try await node.database.writeDurablyGrouped { db -> (Bool, Bool) in
            // A domain that just sent us a verified activity is up: deliveries to it resume now
            // rather than at the next hourly probe. Healthy domains have no row, so this is one
            // primary-key lookup.
            var revived = false
            if let domain { revived = try db.deliveries.markAvailableIfFailing(domain, at: Date()) }
            guard try db.inbox.markSeen(seen) else { return (revived, false) }
            try db.inbox.enqueue(item)
            return (revived, true)
        }
        if revived { node.deliverySignal.notify() }
        return queued
    }
}

import Activity
import Foundation
import Signatures

/// Only the origin speaks for its objects: the checks an inbound activity passes before its
/// signature is verified, so nothing (its signing key included) is fetched for one that would be
/// refused anyway.
package enum InboxOrigin {
    /// Activity types whose object is the sender's own: created, changed, removed or undone.
    package static let ownObjectTypes: Set<String> = ["Create", "Update", "Delete", "Undo"]

    /// Refuses ids that are too long, activity ids not on the sender's host (one server must
    /// not claim, and so burn, another's ids), and objects the activity creates, updates,
    /// deletes or undoes that live on another host or are attributed to someone else.
    /// - Throws: `NodeError.badRequest` for over-long ids, `.forbidden` for foreign ones.
    package static func check(_ activity: ASObject, actorId: String) throws(NodeError) {
        let type = activity.type ?? "Activity"
        for id in [activity.id, activity.object?.id, actorId].compactMap({ $0 }) where id.utf8.count > RemoteLimits.maxIdLength {
            throw .badRequest("Id longer than \(RemoteLimits.maxIdLength) bytes")
        }
        let host = ASToAccount.authority(of: actorId)
        guard host != nil else { throw .badRequest("Actor is not a URL") }
        if let id = activity.id, ASToAccount.authority(of: id) != host {
            throw .forbidden("\(type) id is not on the actor's host")
        }
        guard activity.types.contains(where: ownObjectTypes.contains), let objectId = activity.object?.id else { return }
        guard ASToAccount.authority(of: objectId) == host else {
            throw .forbidden("\(type) of an object from another host")
        }
        if let inner = activity.object?.object {
            if let author = inner.attributedTo, author != actorId {
                throw .forbidden("\(type) of an object attributed to someone else")
            }
            if let innerActor = inner.actor?.id, innerActor != actorId {
                throw .forbidden("\(type) of someone else's activity")
            }
        }
    }

    /// The de-duplication key of an activity without id: a digest of its exact body.
    package static func digestKey(_ body: [UInt8]) -> String {
        "sha256:" + Digest.sha256Hex(body)
    }
}

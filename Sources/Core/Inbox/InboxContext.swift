import Activity
import Foundation
import Storage

/// What one handler gets: the node, the activity and its verified sender.
package struct InboxContext: Sendable {
    package let node: Node
    package let activity: ASObject
    /// The verified signer, who is the activity's `actor`.
    package let actor: Account

    /// The activity's object id (embedded object or bare id).
    package var objectId: String? { activity.object?.id }

    /// Runs `body` atomically (its own savepoint in the node's group commit, so the handlers of
    /// items processed at once share one durable commit), mapping failures to
    /// `NodeError.internal`.
    package func write<T: Sendable>(_ body: @escaping @Sendable (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await node.database.writeDurablyGrouped(body) } catch let error as NodeError { throw error } catch {
            throw .internal("inbox write: \(error)")
        }
    }

    /// The activity's object, trusted only from its origin: an embedded object whose id is on
    /// the actor's host is used as sent; anything else is fetched from its own origin.
    package func trustedObject() async throws(NodeError) -> ASObject {
        guard let id = objectId else { throw .badRequest("Activity without object") }
        if let embedded = activity.object?.object, ASToAccount.authority(of: id) == ASToAccount.authority(of: actor.uri) {
            return embedded
        }
        return try await ObjectFetcher(node: node).fetch(id)
    }

    /// Whether `uri` belongs to the sending actor's host.
    package func isActorsOwn(_ uri: String?) -> Bool {
        guard let uri else { return false }
        return ASToAccount.authority(of: uri) == ASToAccount.authority(of: actor.uri)
    }

    /// The local account with actor id `uri`, if it is one of ours.
    package func localAccount(_ given: String?) async throws(NodeError) -> Account? {
        guard let given, let uri = node.urls.canonicalLocal(given) else { return nil }
        do { return try await node.database.read { try $0.accounts.find(uri: uri) } } catch {
            throw .internal("reading account: \(error)")
        }
    }

    /// The stored post with id `uri`, if any.
    package func post(_ uri: String?) async throws(NodeError) -> Post? {
        guard let uri else { return nil }
        do { return try await node.database.read { try $0.posts.find(uri: uri) } } catch {
            throw .internal("reading post: \(error)")
        }
    }
}

/// How a handler finished.
package enum InboxOutcome: Sendable, Equatable {
    /// Effects stored (or already there: handlers are idempotent).
    case processed
    /// Nothing to do, with the reason.
    case ignored(String)
}

/// One handler per inbound activity type (`Inbox/Handlers`), chosen by `InboxDispatcher`.
package protocol InboxHandler: Sendable {
    /// Applies the activity. Must be idempotent: processing it twice changes nothing more.
    func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome
}

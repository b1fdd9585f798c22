import Activity
import Storage

/// `Block` of a local account by a remote one: recorded; follows both ways end and the
/// blocker's posts leave the blocked person's timeline, so neither sees the other.
package struct BlockHandler: InboxHandler {
    package func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        guard let target = try await context.localAccount(context.objectId) else { return .ignored("Block of a non-local account") }
        let blocker = context.actor
        try await context.write { db in
            try db.blocks.add(Block(accountId: blocker.id, targetAccountId: target.id, uri: context.activity.id))
            try db.follows.deleteAll(between: blocker.id, and: target.id)
            try db.timelines.remove(author: blocker.id, from: target.id)
        }
        return .processed
    }
}

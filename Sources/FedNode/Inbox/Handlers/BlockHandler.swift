import Activity
import GRDB
import Storage

/// `Block` of a local account by a remote one: recorded; follows both ways end and the
/// blocker's posts leave the blocked person's timeline, so neither sees the other.
struct BlockHandler: InboxHandler {
    func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        guard let target = try await context.localAccount(context.objectId) else { return .ignored("Block of a non-local account") }
        let blocker = context.actor
        try await context.write { db in
            try Block(accountId: blocker.id, targetAccountId: target.id, uri: context.activity.id).insert(db.grdb, onConflict: .ignore)
            try Follow.filter((Column("account_id") == blocker.id && Column("target_account_id") == target.id)
                              || (Column("account_id") == target.id && Column("target_account_id") == blocker.id)).deleteAll(db.grdb)
            try HomeTimeline.remove(authorId: blocker.id, from: target.id, in: db.grdb)
        }
        return .processed
    }
}

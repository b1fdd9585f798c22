import Activity
import GRDB
import Storage

/// `Undo` of the actor's own Follow, Like, Announce or Block (the inner object embedded or
/// referenced by id; only what the actor itself did can be undone).
struct UndoHandler: InboxHandler {
    func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        let inner = context.activity.object?.object
        let innerId = context.objectId
        let actor = context.actor
        if let innerActor = inner?.actor?.id, innerActor != actor.uri { throw .forbidden("Undo of someone else's activity") }
        let undone = try await context.write { db -> Bool in
            switch inner?.type {
            case "Follow": try Self.undoFollow(actor, inner: inner, innerId: innerId, in: db)
            case "Like": try Self.undoLike(actor, inner: inner, innerId: innerId, in: db)
            case "Announce": try Self.undoAnnounce(actor, innerId: innerId, in: db)
            case "Block": try Self.undoBlock(actor, inner: inner, innerId: innerId, in: db)
            default:
                // A bare id: whichever of our records carries it.
                try Self.undoFollow(actor, inner: nil, innerId: innerId, in: db)
                    || Self.undoLike(actor, inner: nil, innerId: innerId, in: db)
                    || Self.undoAnnounce(actor, innerId: innerId, in: db)
                    || Self.undoBlock(actor, inner: nil, innerId: innerId, in: db)
            }
        }
        return undone ? .processed : .ignored("Undo of nothing we know")
    }

    private static func undoFollow(_ actor: Account, inner: ASObject?, innerId: String?, in db: Transaction) throws -> Bool {
        var request = Follow.filter(Column("account_id") == actor.id)
        if let target = inner?.object?.id, let local = try Account.withURI(target).fetchOne(db.grdb) {
            request = request.filter(Column("target_account_id") == local.id)
        } else {
            guard let innerId else { return false }
            request = request.filter(Column("uri") == innerId)
        }
        guard let follow = try request.fetchOne(db.grdb) else { return false }
        try follow.delete(db.grdb)
        try HomeTimeline.remove(authorId: follow.targetAccountId, from: actor.id, in: db.grdb)
        return true
    }

    private static func undoLike(_ actor: Account, inner: ASObject?, innerId: String?, in db: Transaction) throws -> Bool {
        var request = Like.filter(Column("account_id") == actor.id)
        if let postURI = inner?.object?.id, let post = try Post.filter(Column("uri") == postURI).fetchOne(db.grdb) {
            request = request.filter(Column("post_id") == post.id)
        } else {
            guard let innerId else { return false }
            request = request.filter(Column("uri") == innerId)
        }
        guard let like = try request.fetchOne(db.grdb) else { return false }
        try like.delete(db.grdb)
        try db.grdb.execute(sql: "DELETE FROM notifications WHERE from_account_id = ? AND post_id = ? AND type = 'favourite'",
                       arguments: [actor.id, like.postId])
        return true
    }

    private static func undoAnnounce(_ actor: Account, innerId: String?, in db: Transaction) throws -> Bool {
        guard let innerId else { return false }
        return try Post.filter(Column("uri") == innerId && Column("account_id") == actor.id && Column("reblog_of_id") != nil)
            .deleteAll(db.grdb) > 0
    }

    private static func undoBlock(_ actor: Account, inner: ASObject?, innerId: String?, in db: Transaction) throws -> Bool {
        var request = Block.filter(Column("account_id") == actor.id)
        if let target = inner?.object?.id, let local = try Account.withURI(target).fetchOne(db.grdb) {
            request = request.filter(Column("target_account_id") == local.id)
        } else {
            guard let innerId else { return false }
            request = request.filter(Column("uri") == innerId)
        }
        return try request.deleteAll(db.grdb) > 0
    }
}

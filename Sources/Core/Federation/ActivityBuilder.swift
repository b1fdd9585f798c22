import Activity
import Foundation
import Storage

/// Builds the outgoing activities a local account sends (one builder per activity shape).
package struct ActivityBuilder {
    package let urls: NodeURLs

    /// A fresh activity id for `account`.
    package func newId(_ account: Account) -> String { urls.activity(account.username, id: Snowflake.next()) }

    /// `Follow` of `target` by `follower`, with the id stored on the follow row.
    package func follow(id: String, follower: Account, target: Account) -> ASObject {
        ASObject(id: id, type: "Follow", actor: .id(follower.uri), object: .id(target.uri), to: [target.uri])
    }

    /// `Accept` (or `Reject`) of a received Follow, echoing it as Mastodon does.
    package func answer(_ type: String, followId: String?, follower: Account, target: Account) -> ASObject {
        let follow = ASObject(id: followId, type: "Follow", actor: .id(follower.uri), object: .id(target.uri))
        return ASObject(id: newId(target), type: type, actor: .id(target.uri), object: .object(follow), to: [follower.uri])
    }

    /// `Undo` of an earlier activity of `actor`.
    package func undo(_ original: ASObject, actor: Account, to: [String]) -> ASObject {
        var inner = original
        inner.context = nil
        return ASObject(id: newId(actor), type: "Undo", actor: .id(actor.uri), object: .object(inner), to: to)
    }

    /// `Like` of a post.
    package func like(id: String, liker: Account, post: Post, author: Account) -> ASObject {
        ASObject(id: id, type: "Like", actor: .id(liker.uri), object: .id(post.uri), to: [author.uri])
    }

    /// `Block` of an account.
    package func block(id: String, blocker: Account, target: Account) -> ASObject {
        ASObject(id: id, type: "Block", actor: .id(blocker.uri), object: .id(target.uri), to: [target.uri])
    }

    /// `Announce` (boost) of a post.
    package func announce(id: String, booster: Account, post: Post, author: Account, published: Date) -> ASObject {
        ASObject(id: id, type: "Announce", actor: .id(booster.uri), object: .id(post.uri),
                 to: [ActivityStreams.publicAddress], cc: [author.uri, booster.followersUrl ?? booster.uri + "/followers"],
                 published: published)
    }

    /// `Delete` of a post, with a `Tombstone` as Mastodon sends it.
    package func deletePost(_ post: Post, author: Account, to: [String], cc: [String]) -> ASObject {
        let tombstone = ASObject(id: post.uri, type: "Tombstone")
        return ASObject(id: post.uri + "#delete", type: "Delete", actor: .id(author.uri), object: .object(tombstone), to: to, cc: cc)
    }

    /// `Delete` of the actor itself, when its account is deleted: public, as Mastodon sends it,
    /// so every server that knows the actor removes it.
    package func deleteActor(_ account: Account) -> ASObject {
        ASObject(id: account.uri + "#delete", type: "Delete", actor: .id(account.uri), object: .id(account.uri),
                 to: [ActivityStreams.publicAddress])
    }

    /// `Update` of a Note or of the actor itself.
    package func update(_ object: ASObject, actor: Account, to: [String], cc: [String]) -> ASObject {
        var inner = object
        inner.context = nil
        return ASObject(id: newId(actor), type: "Update", actor: .id(actor.uri), object: .object(inner), to: to, cc: cc,
                        published: Date())
    }
}

import Activity
import Storage

extension ActivityBuilder {
    /// `Add` (pin) or `Remove` (unpin) of `post` to or from `author`'s `featured` collection,
    /// in the shape Mastodon sends: the post's id as `object`, the collection as `target`.
    package func featured(_ type: String, post: Post, author: Account) -> ASObject {
        ASObject(id: newId(author), type: type, actor: .id(author.uri), object: .id(post.uri),
                 target: .id(urls.featured(author.username)),
                 to: [ActivityStreams.publicAddress], cc: [author.followersUrl ?? urls.followers(author.username)])
    }
}

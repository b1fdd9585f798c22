import Activity
import Foundation
import Storage

extension ActivityBuilder {
    /// `Move` of `origin` to `target`, as Mastodon sends it: the actor moves itself (`object`
    /// is the actor), addressed to its followers.
    package func move(_ origin: Account, to target: Account) -> ASObject {
        ASObject(id: "\(origin.uri)#moves/\(Snowflake.next())", type: "Move", actor: .id(origin.uri), object: .id(origin.uri),
                 target: .id(target.uri), to: [origin.followersUrl ?? urls.followers(origin.username)])
    }
}

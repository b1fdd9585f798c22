import Activity
import Storage

/// `Move` of a remote account to another (account migration, as Mastodon sends it): the actor
/// must move itself (`object` is the actor), and the `target`, fetched fresh from its origin,
/// must list the actor in its `alsoKnownAs`. Then the actor is marked moved and every local
/// follower follows the target instead (`AccountMigrationService.acceptMove`).
package struct MoveHandler: InboxHandler {
    package func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        let origin = context.actor
        guard context.objectId == origin.uri else { return .ignored("Move of an account other than its actor") }
        guard let targetURI = context.activity.target?.id else { return .ignored("Move without a target") }
        let migrations = context.node.migrations
        guard let target = try await migrations.verifiedTarget(targetURI, aliasing: origin) else {
            return .ignored("Move target does not list the actor in alsoKnownAs, or has moved itself")
        }
        try await migrations.acceptMove(of: origin, to: target)
        return .processed
    }
}

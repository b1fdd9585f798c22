import Core
import Hummingbird

/// The person's preferences (`/api/v1/preferences`), which apps read to prefill the composer.
struct PreferencesController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/preferences", use: show)
    }

    /// `GET /api/v1/preferences` (`read:accounts`): the posting defaults, as the account's
    /// `source` has them; media and spoilers as Mastodon's defaults.
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:accounts")
        let defaults = try await node.read("preferences") { db in try db.postingDefaults.of(me.id) }
        return APIResponse.json(APIPreferences(postingDefaultVisibility: defaults.visibility.rawValue, postingDefaultSensitive: defaults.sensitive,
                                               postingDefaultLanguage: defaults.language, readingExpandMedia: "default",
                                               readingExpandSpoilers: false))
    }
}

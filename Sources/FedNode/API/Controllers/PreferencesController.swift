import Core
import Hummingbird

/// The person's preferences (`/api/v1/preferences`), which apps read to prefill the composer.
struct PreferencesController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/preferences", use: show)
    }

    /// `GET /api/v1/preferences` (`read:accounts`): the defaults, matching the account's
    /// `source` (public, not sensitive, no language; media and spoilers as Mastodon defaults).
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        _ = try await node.apiAuth.user(of: request, scope: "read:accounts")
        return APIResponse.json(APIPreferences(postingDefaultVisibility: "public", postingDefaultSensitive: false, postingDefaultLanguage: nil,
                                               readingExpandMedia: "default", readingExpandSpoilers: false))
    }
}

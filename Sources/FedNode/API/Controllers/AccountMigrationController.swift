import Core
import Hummingbird
import Storage

/// Account migration through GoToSocial's client API (Mastodon has it only in its web
/// settings): `POST /api/v1/accounts/alias` sets the account's aliases (`alsoKnownAs`) and
/// `POST /api/v1/accounts/move` moves it to another account that aliases it back.
struct AccountMigrationController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("api/v1/accounts/alias", use: alias)
        router.post("api/v1/accounts/move", use: move)
    }

    /// `POST /api/v1/accounts/alias` (write:accounts) with `also_known_as_uris[]` (actor ids;
    /// none clears them): each is resolved and must be a real actor. Answers the `Account`.
    @Sendable func alias(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:accounts")
        let params = try await APIParams.read(request)
        try await node.migrations.setAliases(params.strings("also_known_as_uris"), of: me)
        let node = node
        let entity = try await AccountAccess(node: node).read { db in
            try EntityRenderer(node: node, viewer: me, db: db).account(me, withSource: true)
        }
        return APIResponse.json(entity)
    }

    /// `POST /api/v1/accounts/move` (write:accounts) with `password` and `moved_to_uri`: the
    /// target must list this account in its `alsoKnownAs`. Answers 202 `{"message": "accepted"}`,
    /// as GoToSocial; the account can still sign in but no longer post.
    @Sendable func move(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:accounts")
        let params = try await APIParams.read(request)
        guard let password = params.string("password"), !password.isEmpty else { throw NodeError.badRequest("Missing parameter: password") }
        guard let target = params.nonEmpty("moved_to_uri") else { throw NodeError.badRequest("Missing parameter: moved_to_uri") }
        try await node.migrations.move(me, to: target, password: password)
        return APIResponse.json(["message": "accepted"], status: .accepted)
    }
}

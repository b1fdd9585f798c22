import Core
import Foundation
import Hummingbird
import Storage

/// The signed-in account's own profile: `GET /api/v1/accounts/verify_credentials`,
/// `PATCH /api/v1/accounts/update_credentials` (also POST and PUT, which older apps send) and
/// `DELETE /api/v1/profile/avatar|header`.
struct CredentialsController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/accounts/verify_credentials", use: verify)
        router.patch("api/v1/accounts/update_credentials", use: update)
        router.put("api/v1/accounts/update_credentials", use: update)
        router.post("api/v1/accounts/update_credentials", use: update)
        router.delete("api/v1/profile/avatar", use: removeAvatar)
        router.delete("api/v1/profile/header", use: removeHeader)
    }

    /// `GET /api/v1/accounts/verify_credentials`: the caller's `Account` with `source`. Needs
    /// `read:accounts` (or `read`) or `profile`.
    @Sendable func verify(_ request: Request, context: NodeRequestContext) async throws -> Response {
        guard let caller = try await node.apiAuth.caller(of: request) else { throw NodeError.unauthorized("The access token is invalid") }
        if !caller.scopes.allows("profile") { try caller.require("read:accounts") }
        let account = try caller.user()
        return try await render(account)
    }

    /// `PATCH /api/v1/accounts/update_credentials` (`write:accounts`): display name, bio,
    /// avatar and header (multipart files), profile links, locked, discoverable, bot, the
    /// first and last name, and the posting defaults in `source`. Answers the updated `Account` with `source`; 422 for invalid values.
    @Sendable func update(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, account) = try await node.apiAuth.user(of: request, scope: "write:accounts")
        let params = try await APIParams.read(request, fileLimit: APIParams.uploadLimit)
        // A username is part of the account's ActivityPub id, which other servers keep; the
        // email is the login and changes through its own confirmed flow. Neither is silently ignored.
        try params.refuse(["username"]) { _ in "Usernames cannot be changed: other servers know the account by it" }
        try params.refuse(["email"]) { _ in "The email address cannot be changed through update_credentials" }
        try Self.refuseUnkeptSettings(params)
        var changes = Self.changes(from: params)
        try Self.postingDefaults(from: params, into: &changes)
        let saved = try await node.profiles.update(account, with: changes)
        return try await render(saved)
    }

    /// `DELETE /api/v1/profile/avatar` (`write:accounts`, Mastodon 4.2): the default avatar
    /// shows again, here and, through `Update`, on followers' servers. Answers the `Account`
    /// with `source`, also when there was none to remove.
    @Sendable func removeAvatar(_ request: Request, context: NodeRequestContext) async throws -> Response {
        var changes = ProfileChanges()
        changes.removesAvatar = true
        return try await remove(request, changes)
    }

    /// `DELETE /api/v1/profile/header` (`write:accounts`, Mastodon 4.2): as `removeAvatar`, for
    /// the cover photo.
    @Sendable func removeHeader(_ request: Request, context: NodeRequestContext) async throws -> Response {
        var changes = ProfileChanges()
        changes.removesHeader = true
        return try await remove(request, changes)
    }

    /// Removes what `changes` says; with nothing to remove, changes nothing and sends no `Update`.
    private func remove(_ request: Request, _ changes: ProfileChanges) async throws -> Response {
        let (_, account) = try await node.apiAuth.user(of: request, scope: "write:accounts")
        let present = (changes.removesAvatar && account.avatarUrl != nil) || (changes.removesHeader && account.headerUrl != nil)
        return try await render(present ? try await node.profiles.update(account, with: changes) : account)
    }

    /// Settings Mastodon keeps and this node does not (collections are always shown, and no
    /// attribution domains are kept): asking for another value is a 422, not a 200 that drops
    /// it. Sending the value the node has is accepted, as apps that save a whole preferences
    /// form do.
    /// - Throws: `NodeError.validation` naming the setting.
    static func refuseUnkeptSettings(_ params: APIParams) throws(NodeError) {
        if params.bool("hide_collections") == true || params.bool("source[hide_collections]") == true {
            throw .validation("Hiding followers and follows is not supported on this server")
        }
        if !params.strings("attribution_domains").filter({ !$0.isEmpty }).isEmpty {
            throw .validation("Attribution domains are not supported on this server")
        }
    }

    /// The posting defaults a request sets (`source[privacy]`, `source[sensitive]`,
    /// `source[language]`, where an empty language clears it).
    /// - Throws: `NodeError.validation` for an unknown visibility.
    static func postingDefaults(from params: APIParams, into changes: inout ProfileChanges) throws(NodeError) {
        if let privacy = params.nonEmpty("source[privacy]") {
            guard let visibility = Visibility(rawValue: privacy) else {
                throw .validation("Validation failed: Default privacy is not included in the list")
            }
            changes.defaultVisibility = visibility
        }
        changes.defaultSensitive = params.bool("source[sensitive]")
        changes.defaultLanguage = params.string("source[language]").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// The profile edit a request asks for; absent parameters change nothing.
    static func changes(from params: APIParams) -> ProfileChanges {
        var changes = ProfileChanges()
        changes.displayName = params.string("display_name")
        changes.note = params.string("note")
        changes.firstName = params.string("first_name") ?? params.string("source[first_name]")
        changes.lastName = params.string("last_name") ?? params.string("source[last_name]")
        changes.locked = params.bool("locked")
        changes.discoverable = params.bool("discoverable")
        changes.bot = params.bool("bot")
        changes.avatar = params.file("avatar")?.data
        changes.header = params.file("header")?.data
        let attributes = params.objects("fields_attributes")
        if !attributes.isEmpty || params.string("fields_attributes") != nil {
            changes.fields = ProfileChanges.fields(from: attributes)
        }
        return changes
    }

    private func render(_ account: Account) async throws(NodeError) -> Response {
        let entity = try await AccountAccess(node: node).read { db in
            try EntityRenderer(node: node, viewer: account, db: db).account(account, withSource: true)
        }
        return APIResponse.json(entity)
    }
}

import Activity
import Core
import Foundation
import Hummingbird
import Storage

/// Mastodon's admin domain block API (`/api/v1/admin/domain_blocks`) and the public list
/// (`/api/v1/instance/domain_blocks`). A suspension stops all federation with the domain both
/// ways (every federation path checks it, queued deliveries are dropped) and purges what the
/// node stored of its accounts; a silence hides its posts from public timelines except from
/// the people who follow them; `noop` only records the domain.
struct AdminDomainBlocksController {
    let node: Node
    private var access: StaffAccess { StaffAccess(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/admin/domain_blocks", use: list)
        router.get("api/v1/admin/domain_blocks/:id", use: show)
        router.post("api/v1/admin/domain_blocks", use: create)
        router.put("api/v1/admin/domain_blocks/:id", use: update)
        router.delete("api/v1/admin/domain_blocks/:id", use: delete)
        router.get("api/v1/instance/domain_blocks", use: publicList)
        router.get("api/v1/instance/rules", use: rules)
    }

    /// `GET /api/v1/admin/domain_blocks` (`admin:read:domain_blocks`, admins).
    @Sendable func list(_ request: Request, context: NodeRequestContext) async throws -> Response {
        _ = try await access.staff(of: request, scope: "admin:read:domain_blocks", minimum: .admin)
        let blocks = try await access.read { db in try db.moderation.domainBlocks() }
        return APIResponse.json(blocks.map(ModerationRenderer.domainBlock))
    }

    /// `GET /api/v1/admin/domain_blocks/:id` (`admin:read:domain_blocks`, admins).
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        _ = try await access.staff(of: request, scope: "admin:read:domain_blocks", minimum: .admin)
        let id = try StaffAccess.id(context)
        guard let block = try await access.read({ db in try db.moderation.domainBlock(id: id) }) else { throw NodeError.notFound("Record not found") }
        return APIResponse.json(ModerationRenderer.domainBlock(block))
    }

    /// `POST /api/v1/admin/domain_blocks` (`admin:write:domain_blocks`, admins): `domain`
    /// (required), `severity` (default `silence`), `reject_media`, `reject_reports`,
    /// `private_comment`, `public_comment`, `obfuscate`. 422 when the domain is already blocked.
    @Sendable func create(_ request: Request, context: NodeRequestContext) async throws -> Response {
        _ = try await access.staff(of: request, scope: "admin:write:domain_blocks", minimum: .admin)
        let params = try await APIParams.read(request)
        let stored = try await DomainPolicyService(node: node).block(params.nonEmpty("domain") ?? "", Self.changes(params))
        return APIResponse.json(ModerationRenderer.domainBlock(stored))
    }

    /// `PUT /api/v1/admin/domain_blocks/:id` (`admin:write:domain_blocks`, admins): the same
    /// fields as creating, but the domain.
    @Sendable func update(_ request: Request, context: NodeRequestContext) async throws -> Response {
        _ = try await access.staff(of: request, scope: "admin:write:domain_blocks", minimum: .admin)
        let id = try StaffAccess.id(context)
        let stored = try await DomainPolicyService(node: node).updateBlock(id, Self.changes(try await APIParams.read(request)))
        return APIResponse.json(ModerationRenderer.domainBlock(stored))
    }

    /// `DELETE /api/v1/admin/domain_blocks/:id` (`admin:write:domain_blocks`, admins): lifts
    /// the block; federation resumes (what a suspension purged stays gone).
    @Sendable func delete(_ request: Request, context: NodeRequestContext) async throws -> Response {
        _ = try await access.staff(of: request, scope: "admin:write:domain_blocks", minimum: .admin)
        let id = try StaffAccess.id(context)
        try await DomainPolicyService(node: node).unblock(id)
        return APIResponse.empty()
    }

    /// `GET /api/v1/instance/domain_blocks` (public): suspended and silenced domains with
    /// their public reasons, obfuscated ones partly starred.
    @Sendable func publicList(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let blocks = try await access.read { db in try db.moderation.domainBlocks() }
        return APIResponse.json(blocks.filter { $0.severity != "noop" }.map(ModerationRenderer.publicDomainBlock))
    }

    /// `GET /api/v1/instance/rules` (public).
    @Sendable func rules(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let rules = try await access.read { db in try db.moderation.rules() }
        return APIResponse.json(rules.map { APIRuleWithHint(id: String($0.id ?? 0), text: $0.text, hint: $0.hint) })
    }

    /// The block's fields in the request, where sent.
    private static func changes(_ params: APIParams) -> DomainPolicyService.BlockChanges {
        DomainPolicyService.BlockChanges(
            severity: params.nonEmpty("severity"), rejectMedia: params.bool("reject_media"), rejectReports: params.bool("reject_reports"),
            privateComment: params.string("private_comment"), publicComment: params.string("public_comment"), obfuscate: params.bool("obfuscate"))
    }
}

/// Mastodon's `Rule` entity with its hint (Mastodon 4.1+).
struct APIRuleWithHint: Codable, Sendable, Equatable {
    /// Rule id.
    var id: String
    /// The rule.
    var text: String
    /// A longer explanation.
    var hint: String
}

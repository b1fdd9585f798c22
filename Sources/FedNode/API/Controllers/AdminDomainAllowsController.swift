import Core
import Foundation
import Hummingbird
import Storage

/// Mastodon's admin domain allow API (`/api/v1/admin/domain_allows`): in allow-list mode
/// (`--federation-mode allowlist`) the node federates only with these domains (and their
/// subdomains) that are not blocked: inbox requests, fetches and deliveries of any other are
/// refused as a blocked domain's are. In block-list mode the list is kept but has no effect.
struct AdminDomainAllowsController {
    let node: Node
    private var access: StaffAccess { StaffAccess(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/admin/domain_allows", use: list)
        router.get("api/v1/admin/domain_allows/:id", use: show)
        router.post("api/v1/admin/domain_allows", use: create)
        router.delete("api/v1/admin/domain_allows/:id", use: delete)
    }

    /// `GET /api/v1/admin/domain_allows` (`admin:read:domain_allows`, admins): newest first,
    /// paged by id (`limit` up to 200, default 100).
    @Sendable func list(_ request: Request, context: NodeRequestContext) async throws -> Response {
        _ = try await access.staff(of: request, scope: "admin:read:domain_allows", minimum: .admin)
        let page = try PageQuery(try await APIParams.read(request), defaultLimit: 100, maxLimit: 200).bounds
        let allows = try await access.read { db in try db.domainAllows.page(page) }
        return APIResponse.json(allows.map(Self.entity), headers: PageQuery.headers(for: request, base: node.urls.base, ids: allows.compactMap(\.id)))
    }

    /// `GET /api/v1/admin/domain_allows/:id` (`admin:read:domain_allows`, admins).
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        _ = try await access.staff(of: request, scope: "admin:read:domain_allows", minimum: .admin)
        let id = try StaffAccess.id(context)
        guard let allow = try await access.read({ db in try db.domainAllows.find(id: id) }) else { throw NodeError.notFound("Record not found") }
        return APIResponse.json(Self.entity(allow))
    }

    /// `POST /api/v1/admin/domain_allows` (`admin:write:domain_allows`, admins): `domain`.
    /// Allowing a domain already allowed answers the existing allow, as Mastodon does.
    @Sendable func create(_ request: Request, context: NodeRequestContext) async throws -> Response {
        _ = try await access.staff(of: request, scope: "admin:write:domain_allows", minimum: .admin)
        let allow = try await DomainPolicyService(node: node).allow(try await APIParams.read(request).nonEmpty("domain") ?? "")
        return APIResponse.json(Self.entity(allow))
    }

    /// `DELETE /api/v1/admin/domain_allows/:id` (`admin:write:domain_allows`, admins): in
    /// allow-list mode federation with the domain stops and its queued deliveries are dropped.
    @Sendable func delete(_ request: Request, context: NodeRequestContext) async throws -> Response {
        _ = try await access.staff(of: request, scope: "admin:write:domain_allows", minimum: .admin)
        let id = try StaffAccess.id(context)
        try await DomainPolicyService(node: node).disallow(id)
        return APIResponse.empty()
    }

    /// The `Admin::DomainAllow` entity of `allow`.
    static func entity(_ allow: DomainAllow) -> APIAdminDomainAllow {
        APIAdminDomainAllow(id: String(allow.id ?? 0), domain: allow.domain, createdAt: Timestamps.iso8601(allow.createdAt))
    }
}

import Activity
import Core
import Foundation
import Hummingbird
import Storage

/// A person hiding a whole domain: `GET|POST|DELETE /api/v1/domain_blocks`
/// (docs.joinmastodon.org/methods/domain_blocks). Posts and notifications from the domain's
/// accounts leave the person's timelines, notifications and streams; follows either way end
/// (`InteractionService.hideDomain`). Not to be confused with the admin's domain blocks.
struct DomainBlocksController {
    let node: Node

    /// The longest domain accepted (a DNS name, with a port).
    static let maxDomainLength = 260

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/domain_blocks", use: list)
        router.post("api/v1/domain_blocks", use: block)
        router.delete("api/v1/domain_blocks", use: unblock)
    }

    /// `GET /api/v1/domain_blocks` (read:blocks): the hidden domains as strings, newest first,
    /// paged by `Link` headers (default 100, at most 200, as Mastodon).
    @Sendable func list(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:blocks")
        let page = try PageQuery(try await APIParams.read(request), defaultLimit: 100, maxLimit: 200).bounds
        let items = try await AccountAccess(node: node).read { db in try db.accountDomainBlocks.domains(of: me.id, page: page) }
        return APIResponse.json(items.map(\.item), headers: PageQuery.headers(for: request, base: node.urls.base, ids: items.map(\.cursor)))
    }

    /// `POST /api/v1/domain_blocks` (write:blocks) with `domain`: hides it. Answers `{}`.
    @Sendable func block(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:blocks")
        let domain = try Self.domain(try await APIParams.read(request), node: node)
        try await node.interactions.hideDomain(domain, by: me)
        return APIResponse.empty()
    }

    /// `DELETE /api/v1/domain_blocks` (write:blocks) with `domain`: shows it again. Answers `{}`.
    @Sendable func unblock(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:blocks")
        let domain = try Self.domain(try await APIParams.read(request), node: node)
        try await node.interactions.unhideDomain(domain, by: me)
        return APIResponse.empty()
    }

    /// The `domain` parameter as accounts store domains: `host[:port]`, lowercased; a URL
    /// gives its authority.
    /// - Throws: `NodeError.badRequest` when it is missing, `.validation` when it is not a
    ///   domain name or is this node's own.
    static func domain(_ params: APIParams, node: Node) throws(NodeError) -> String {
        guard let raw = params.nonEmpty("domain")?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else {
            throw .badRequest("Missing parameter: domain")
        }
        var domain = HostAuthority.normalize(raw) ?? raw.lowercased()
        if raw.contains("://") { domain = ASToAccount.authority(of: raw) ?? "" }
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789.-:_[]")
        guard !domain.isEmpty, domain.count <= maxDomainLength, domain.unicodeScalars.allSatisfy({ allowed.contains($0) }),
            domain.first != ".", domain.last != "."
        else { throw .validation("Validation failed: Domain is not a valid domain name") }
        if node.urls.isOwn(authority: domain) { throw .validation("Validation failed: Domain is this server's own") }
        return domain
    }
}

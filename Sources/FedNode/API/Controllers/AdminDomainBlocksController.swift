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
    static let severities: Set<String> = ["silence", "suspend", "noop"]
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
        guard let raw = params.nonEmpty("domain") else { throw NodeError.validation("Validation failed: Domain can't be blank") }
        let domain = try Self.checked(raw)
        guard domain != node.urls.domain.lowercased() else { throw NodeError.validation("Validation failed: Domain cannot be this server") }
        var block = InstanceDomainBlock(domain: domain, severity: "silence")
        try Self.apply(params, to: &block)
        let stored = try await access.write { [block] db -> InstanceDomainBlock? in
            guard try db.moderation.domainBlock(domain: domain) == nil else { return nil }
            return try Self.save(block, in: db)
        }
        guard let stored else { throw NodeError.validation("Validation failed: Domain is already blocked") }
        return APIResponse.json(ModerationRenderer.domainBlock(stored))
    }

    /// `PUT /api/v1/admin/domain_blocks/:id` (`admin:write:domain_blocks`, admins): the same
    /// fields as creating, but the domain.
    @Sendable func update(_ request: Request, context: NodeRequestContext) async throws -> Response {
        _ = try await access.staff(of: request, scope: "admin:write:domain_blocks", minimum: .admin)
        let id = try StaffAccess.id(context)
        let params = try await APIParams.read(request)
        try Self.validate(params)
        let stored = try await access.write { db -> InstanceDomainBlock? in
            guard var block = try db.moderation.domainBlock(id: id) else { return nil }
            try Self.apply(params, to: &block)
            return try Self.save(block, in: db)
        }
        guard let stored else { throw NodeError.notFound("Record not found") }
        return APIResponse.json(ModerationRenderer.domainBlock(stored))
    }

    /// `DELETE /api/v1/admin/domain_blocks/:id` (`admin:write:domain_blocks`, admins): lifts
    /// the block; federation resumes (what a suspension purged stays gone).
    @Sendable func delete(_ request: Request, context: NodeRequestContext) async throws -> Response {
        _ = try await access.staff(of: request, scope: "admin:write:domain_blocks", minimum: .admin)
        let id = try StaffAccess.id(context)
        let deleted = try await access.write { db -> Bool in
            guard let block = try db.moderation.domainBlock(id: id) else { return false }
            return try db.moderation.deleteDomainBlock(block)
        }
        guard deleted else { throw NodeError.notFound("Record not found") }
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

    /// Stores `block`, applying its severity, and purges a newly suspended domain.
    static func save(_ block: InstanceDomainBlock, in db: Transaction) throws -> InstanceDomainBlock {
        let (stored, _) = try db.moderation.saveDomainBlock(block)
        if stored.severity == "suspend" { _ = try db.moderation.purgeDomain(stored.domain) }
        return stored
    }

    /// Checks the request's fields.
    /// - Throws: 422 for an unknown severity or an over-long comment.
    static func validate(_ params: APIParams) throws(NodeError) {
        if let severity = params.nonEmpty("severity"), !severities.contains(severity) {
            throw .validation("Validation failed: Severity is not included in the list")
        }
        for key in ["private_comment", "public_comment"] where (params.string(key)?.count ?? 0) > 1_000 {
            throw .validation("Validation failed: \(key) is too long (maximum is 1000 characters)")
        }
    }

    /// Applies the request's fields to `block`.
    static func apply(_ params: APIParams, to block: inout InstanceDomainBlock) throws(NodeError) {
        try validate(params)
        if let severity = params.nonEmpty("severity") { block.severity = severity }
        if let value = params.bool("reject_media") { block.rejectMedia = value }
        if let value = params.bool("reject_reports") { block.rejectReports = value }
        if let value = params.string("private_comment") { block.privateComment = value }
        if let value = params.string("public_comment") { block.publicComment = value }
        if let value = params.bool("obfuscate") { block.obfuscate = value }
    }

    /// `domain` lowercased, when it is a host name (with an optional port).
    /// - Throws: 422 otherwise.
    static func checked(_ domain: String) throws(NodeError) -> String {
        // One spelling (`HostAuthority`): `Evil.Example.` and `bücher.example` are stored as
        // `evil.example` and `xn--bcher-kva.example`, the names every check compares.
        let lowered = HostAuthority.normalize(domain) ?? domain.trimmingCharacters(in: .whitespaces).lowercased()
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-:_")
        guard !lowered.isEmpty, lowered.count <= 253, lowered.allSatisfy(allowed.contains), !lowered.hasPrefix("."), lowered.contains(".") || lowered.contains(":")
        else { throw .validation("Validation failed: Domain is not a valid domain name") }
        return lowered
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

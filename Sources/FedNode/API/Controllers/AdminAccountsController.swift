import Core
import Foundation
import Hummingbird
import Storage

/// Mastodon's admin account API (`/api/v1/admin/accounts`, `/api/v2/admin/accounts`):
/// moderators list and read accounts and act on them. A suspended local account cannot sign in,
/// its actor answers 410 and its posts are hidden; a suspended remote account's posts, follows
/// and likes are purged and its activities ignored. Silenced accounts leave public timelines
/// except for their followers; disabled local accounts cannot sign in.
struct AdminAccountsController {
    static let actions: Set<String> = ["none", "sensitive", "disable", "silence", "suspend"]
    let node: Node
    private var access: StaffAccess { StaffAccess(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/admin/accounts", use: listV1)
        router.get("api/v2/admin/accounts", use: listV2)
        router.get("api/v1/admin/accounts/:id", use: show)
        router.post("api/v1/admin/accounts/:id/action", use: action)
        router.post("api/v1/admin/accounts/:id/enable", use: { request, context in try await undo(request, context) { $0.disabledAt = nil } })
        router.post("api/v1/admin/accounts/:id/unsilence", use: { request, context in try await undo(request, context) { $0.silencedAt = nil } })
        router.post("api/v1/admin/accounts/:id/unsuspend", use: { request, context in try await undo(request, context) { $0.suspendedAt = nil } })
        router.post("api/v1/admin/accounts/:id/unsensitive", use: { request, context in try await undo(request, context) { $0.sensitizedAt = nil } })
        router.post("api/v1/admin/accounts/:id/approve", use: approve)
        router.post("api/v1/admin/accounts/:id/reject", use: reject)
    }

    /// `GET /api/v1/admin/accounts` (`admin:read:accounts`): `local`, `remote`, `by_domain`,
    /// `active`, `pending`, `disabled`, `silenced`, `suspended`, `sensitized`, `staff`,
    /// `username`, `display_name`, `email`; paged by id (`limit` up to 200, default 100).
    @Sendable func listV1(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let params = try await APIParams.read(request)
        var filter = AccountListFilter()
        if params.bool("local") == true { filter.local = true } else if params.bool("remote") == true { filter.local = false }
        filter.status = ["active", "pending", "disabled", "silenced", "suspended", "sensitized"].first { params.bool($0) == true }
        filter.staffOnly = params.bool("staff") == true
        return try await list(request, params, filter)
    }

    /// `GET /api/v2/admin/accounts` (`admin:read:accounts`): `origin` (`local`, `remote`),
    /// `status` (`active`, `pending`, `disabled`, `silenced`, `suspended`), `permissions`
    /// (`staff`), `by_domain`, `username`, `display_name`, `email`; paged like v1.
    @Sendable func listV2(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let params = try await APIParams.read(request)
        var filter = AccountListFilter()
        switch params.nonEmpty("origin") {
        case "local": filter.local = true
        case "remote": filter.local = false
        case nil: break
        default: throw NodeError.validation("origin must be local or remote")
        }
        if let status = params.nonEmpty("status") {
            guard ["active", "pending", "disabled", "silenced", "suspended"].contains(status) else {
                throw NodeError.validation("status must be active, pending, disabled, silenced or suspended")
            }
            filter.status = status
        }
        filter.staffOnly = params.nonEmpty("permissions") == "staff"
        try params.refuse(["ip", "invited_by", "role_ids"]) { "\($0) is not supported: the node keeps no sign-in addresses or custom roles, and does not filter by inviter" }
        return try await list(request, params, filter)
    }

    /// `GET /api/v1/admin/accounts/:id` (`admin:read:accounts`).
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (me, _) = try await access.staff(of: request, scope: "admin:read:accounts")
        return try await answer(StaffAccess.id(context), viewer: me)
    }

    /// `POST /api/v1/admin/accounts/:id/action` (`admin:write:accounts`): `type` (`none`,
    /// `sensitive`, `disable`, `silence`, `suspend`), `report_id` (resolved by the action),
    /// `text`. Staff cannot be acted on but by someone above them. Answers `{}`.
    @Sendable func action(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (me, myRole) = try await access.staff(of: request, scope: "admin:write:accounts")
        let id = try StaffAccess.id(context)
        let params = try await APIParams.read(request)
        let type = params.nonEmpty("type") ?? "none"
        guard Self.actions.contains(type) else { throw NodeError.validation("type must be none, sensitive, disable, silence or suspend") }
        let reportId = try params.recordId("report_id")
        let now = Date()
        try await access.write { db in
            guard let target = try db.accounts.find(id: id) else { throw NodeError.notFound("Record not found") }
            guard target.id != me.id, try db.moderation.role(of: target.id) < myRole else { throw NodeError.forbidden("This action is not allowed") }
            if type == "disable", !target.isLocal { throw NodeError.validation("Only local accounts can be disabled") }
            var measures = try db.moderation.measures(of: target.id)
            switch type {
            case "sensitive": measures.sensitizedAt = now
            case "disable": measures.disabledAt = now
            case "silence": measures.silencedAt = now
            case "suspend":
                measures.suspendedAt = now
                if !target.isLocal { try db.moderation.purge(account: target.id) }
            default: break
            }
            try db.moderation.save(measures)
            if let reportId, var report = try db.moderation.report(id: reportId), report.targetAccountId == target.id {
                report.actionTakenAt = now
                report.actionTakenByAccountId = me.id
                try db.moderation.save(report, at: now)
            }
        }
        return APIResponse.empty()
    }

    /// `POST /api/v1/admin/accounts/:id/approve` (`admin:write:accounts`): the pending
    /// account can sign in and its token works. Answers the account; 403 when not pending.
    @Sendable func approve(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (me, _) = try await access.staff(of: request, scope: "admin:write:accounts")
        let id = try StaffAccess.id(context)
        try await access.write { db in
            guard try db.accounts.exists(id: id) else { throw NodeError.notFound("Record not found") }
            guard try db.registrations.approve(id, at: Date()) else { throw NodeError.forbidden("This account is not pending approval") }
        }
        return try await answer(id, viewer: me)
    }

    /// `POST /api/v1/admin/accounts/:id/reject` (`admin:write:accounts`): deletes the pending
    /// account (it never federated; its name becomes free again). Answers the account as it
    /// was; 403 when not pending.
    @Sendable func reject(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (me, _) = try await access.staff(of: request, scope: "admin:write:accounts")
        let id = try StaffAccess.id(context)
        let entity = try await access.write { db -> APIAdminAccount in
            guard let account = try db.accounts.find(id: id) else { throw NodeError.notFound("Record not found") }
            guard try db.registrations.isPending(id) else { throw NodeError.forbidden("This account is not pending approval") }
            var entity = try ModerationRenderer(node: node, viewer: me, db: db).account(account)
            _ = try db.accounts.delete(account)
            entity.approved = false
            return entity
        }
        return APIResponse.json(entity)
    }

    /// Lifts one measure from the account `:id` and answers it.
    private func undo(_ request: Request, _ context: NodeRequestContext,
                      _ lift: @Sendable @escaping (inout AccountModeration) -> Void) async throws -> Response {
        let (me, _) = try await access.staff(of: request, scope: "admin:write:accounts")
        let id = try StaffAccess.id(context)
        try await access.write { db in
            guard try db.accounts.exists(id: id) else { throw NodeError.notFound("Record not found") }
            var measures = try db.moderation.measures(of: id)
            lift(&measures)
            try db.moderation.save(measures)
        }
        return try await answer(id, viewer: me)
    }

    private func list(_ request: Request, _ params: APIParams, _ base: AccountListFilter) async throws -> Response {
        let (me, _) = try await access.staff(of: request, scope: "admin:read:accounts")
        var filter = base
        filter.domain = params.nonEmpty("by_domain")
        filter.username = params.nonEmpty("username")
        filter.displayName = params.nonEmpty("display_name")
        filter.email = params.nonEmpty("email")
        let page = try PageQuery(params, defaultLimit: 100, maxLimit: 200).bounds
        let (entities, ids) = try await access.read { [filter] db -> ([APIAdminAccount], [Int64]) in
            let accounts = try db.moderation.accounts(filter, page: page)
            let renderer = ModerationRenderer(node: node, viewer: me, db: db)
            return (try accounts.map { try renderer.account($0) }, accounts.map(\.id))
        }
        return APIResponse.json(entities, headers: PageQuery.headers(for: request, base: node.urls.base, ids: ids))
    }

    private func answer(_ id: Int64, viewer: Account) async throws(NodeError) -> Response {
        let entity = try await access.read { db -> APIAdminAccount? in
            guard let account = try db.accounts.find(id: id) else { return nil }
            return try ModerationRenderer(node: node, viewer: viewer, db: db).account(account)
        }
        guard let entity else { throw .notFound("Record not found") }
        return APIResponse.json(entity)
    }
}

import Core
import Foundation
import Hummingbird
import Storage

/// Mastodon's admin report API (`/api/v1/admin/reports`): moderators list, read, assign,
/// resolve and reopen reports, from local users and from other servers.
struct AdminReportsController {
    let node: Node
    private var access: StaffAccess { StaffAccess(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/admin/reports", use: list)
        router.get("api/v1/admin/reports/:id", use: show)
        router.put("api/v1/admin/reports/:id", use: update)
        router.post("api/v1/admin/reports/:id/assign_to_self", use: assignToSelf)
        router.post("api/v1/admin/reports/:id/unassign", use: unassign)
        router.post("api/v1/admin/reports/:id/resolve", use: resolve)
        router.post("api/v1/admin/reports/:id/reopen", use: reopen)
    }

    /// `GET /api/v1/admin/reports` (`admin:read:reports`): open reports (`resolved=true` for
    /// the resolved ones), newest first, optionally by `account_id` or about
    /// `target_account_id`; paged by id (`limit` up to 200, default 100).
    @Sendable func list(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (me, _) = try await access.staff(of: request, scope: "admin:read:reports")
        let params = try await APIParams.read(request)
        let page = try PageQuery(params, defaultLimit: 100, maxLimit: 200).bounds
        let resolved = params.bool("resolved") ?? false
        let (by, about) = (try params.recordId("account_id"), try params.recordId("target_account_id"))
        let (entities, ids) = try await access.read { db -> ([APIAdminReport], [Int64]) in
            let reports = try db.moderation.reports(resolved: resolved, by: by, about: about, page: page)
            let renderer = ModerationRenderer(node: node, viewer: me, db: db)
            return (try reports.compactMap { try renderer.report($0) }, reports.compactMap(\.id))
        }
        return APIResponse.json(entities, headers: PageQuery.headers(for: request, base: node.urls.base, ids: ids))
    }

    /// `GET /api/v1/admin/reports/:id` (`admin:read:reports`).
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (me, _) = try await access.staff(of: request, scope: "admin:read:reports")
        return try await change(StaffAccess.id(context), by: me) { _ in }
    }

    /// `PUT /api/v1/admin/reports/:id` (`admin:write:reports`): `category` and `rule_ids[]`.
    @Sendable func update(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (me, _) = try await access.staff(of: request, scope: "admin:write:reports")
        let params = try await APIParams.read(request)
        let category = params.nonEmpty("category")
        if let category, !ReportService.categories.contains(category) {
            throw NodeError.validation("Validation failed: Category is not included in the list")
        }
        let ruleIds = params.sent("rule_ids") ? try ReportsController.ids(params.strings("rule_ids"), "rule_ids") : nil
        return try await change(StaffAccess.id(context), by: me) { report in
            if let category { report.category = category }
            if let ruleIds { report.ruleIds = ruleIds.map(String.init).joined(separator: ",") }
        }
    }

    /// `POST /api/v1/admin/reports/:id/assign_to_self` (`admin:write:reports`).
    @Sendable func assignToSelf(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (me, _) = try await access.staff(of: request, scope: "admin:write:reports")
        return try await change(StaffAccess.id(context), by: me) { $0.assignedAccountId = me.id }
    }

    /// `POST /api/v1/admin/reports/:id/unassign` (`admin:write:reports`).
    @Sendable func unassign(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (me, _) = try await access.staff(of: request, scope: "admin:write:reports")
        return try await change(StaffAccess.id(context), by: me) { $0.assignedAccountId = nil }
    }

    /// `POST /api/v1/admin/reports/:id/resolve` (`admin:write:reports`): an optional `note`
    /// (or GoToSocial's `action_taken_comment`) is kept as a report note.
    @Sendable func resolve(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (me, _) = try await access.staff(of: request, scope: "admin:write:reports")
        let note = try AdminReportNotesController.content(try await APIParams.read(request), keys: ["note", "action_taken_comment"])
        let now = Date()
        return try await change(StaffAccess.id(context), by: me, note: note) { report in
            report.actionTakenAt = now
            report.actionTakenByAccountId = me.id
        }
    }

    /// `POST /api/v1/admin/reports/:id/reopen` (`admin:write:reports`).
    @Sendable func reopen(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (me, _) = try await access.staff(of: request, scope: "admin:write:reports")
        return try await change(StaffAccess.id(context), by: me) { report in
            report.actionTakenAt = nil
            report.actionTakenByAccountId = nil
        }
    }

    /// Applies `edit` to report `id` (nothing is saved when it changes nothing) and answers it.
    /// - Throws: 404 for an unknown report.
    private func change(_ id: Int64, by me: Account, note: String? = nil,
                        _ edit: @Sendable @escaping (inout Report) -> Void) async throws(NodeError) -> Response {
        let now = Date()
        let entity = try await access.write { db -> APIAdminReport? in
            guard var report = try db.moderation.report(id: id) else { return nil }
            let before = report
            edit(&report)
            if report != before { try db.moderation.save(report, at: now) }
            if let note { _ = try db.reportNotes.add(ReportNote(reportId: id, accountId: me.id, content: note, at: now)) }
            return try ModerationRenderer(node: node, viewer: me, db: db).report(try db.moderation.report(id: id) ?? report)
        }
        guard let entity else { throw .notFound("Record not found") }
        return APIResponse.json(entity)
    }
}

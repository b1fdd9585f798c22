import Core
import Foundation
import Hummingbird
import Storage

/// `POST /api/v1/reports`: a person reports an account (and some of its posts) to the
/// moderators, optionally forwarding an anonymous copy to the account's server.
struct ReportsController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("api/v1/reports", use: create)
    }

    /// `POST /api/v1/reports` (`write:reports`): `account_id` (required), `status_ids[]`,
    /// `comment`, `forward`, `category` (`spam`, `legal`, `violation`, `other`; `violation`
    /// when `rule_ids[]` are given), `rule_ids[]`. Answers the `Report` entity.
    @Sendable func create(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:reports")
        let params = try await APIParams.read(request)
        guard let targetId = try params.recordId("account_id") else { throw NodeError.validation("Validation failed: Account can't be blank") }
        let target = try await AccountAccess(node: node).account(id: targetId)
        let statusIds = try Self.ids(params.strings("status_ids"), "status_ids")
        let ruleIds = try Self.ids(params.strings("rule_ids"), "rule_ids")
        let category = params.nonEmpty("category") ?? (ruleIds.isEmpty ? "other" : "violation")
        try params.refuse(["forward_to_domains"]) { "\($0) is not supported: a forwarded report goes to the reported account's server" }
        let draft = ReportService.Draft(target: target, statusIds: statusIds, comment: params.string("comment") ?? "",
                                        category: category, ruleIds: ruleIds, forward: params.bool("forward") ?? false)
        let report = try await ReportService(node: node).report(draft, by: me)
        let entity = try await StaffAccess(node: node).read { db in
            APIReport(id: String(report.id ?? 0), actionTaken: false, actionTakenAt: nil, category: report.category,
                      comment: report.comment, forwarded: report.forwarded, createdAt: Timestamps.iso8601(report.createdAt),
                      statusIds: report.postIds.map(String.init), ruleIds: report.rules.map(String.init),
                      targetAccount: try EntityRenderer(node: node, viewer: me, db: db).account(target))
        }
        return APIResponse.json(entity)
    }

    /// Ids from a list parameter, at most 100.
    /// - Throws: 422 for anything that is not an id.
    static func ids(_ values: [String], _ name: String) throws(NodeError) -> [Int64] {
        guard values.count <= 100 else { throw .validation("Validation failed: too many \(name)") }
        var ids: [Int64] = []
        for value in values {
            guard let id = Int64(value.trimmingCharacters(in: .whitespaces)) else { throw .validation("Validation failed: \(name) must be ids") }
            ids.append(id)
        }
        return ids
    }
}

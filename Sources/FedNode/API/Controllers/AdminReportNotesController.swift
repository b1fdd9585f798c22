import Core
import Foundation
import Hummingbird
import Storage

/// Moderators' notes on reports (`/api/v1/admin/reports/:id/notes`): what they found or did,
/// for the other moderators. Mastodon keeps such notes in its web UI only; the shape follows
/// Pleroma/Akkoma's report notes. Resolving a report can add one too (`note`, or GoToSocial's
/// `action_taken_comment`).
struct AdminReportNotesController {
    /// The longest note accepted (Mastodon's `ReportNote` limit).
    static let maxLength = 2_000
    let node: Node
    private var access: StaffAccess { StaffAccess(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/admin/reports/:id/notes", use: list)
        router.post("api/v1/admin/reports/:id/notes", use: create)
        router.delete("api/v1/admin/reports/:id/notes/:note_id", use: delete)
    }

    /// `GET /api/v1/admin/reports/:id/notes` (`admin:read:reports`): oldest first.
    @Sendable func list(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (me, _) = try await access.staff(of: request, scope: "admin:read:reports")
        let id = try StaffAccess.id(context)
        let notes = try await access.read { db -> [APIReportNote]? in
            guard try db.moderation.report(id: id) != nil else { return nil }
            return try db.reportNotes.notes(of: id).map { try Self.entity($0, viewer: me, node: node, db: db) }
        }
        guard let notes else { throw NodeError.notFound("Record not found") }
        return APIResponse.json(notes)
    }

    /// `POST /api/v1/admin/reports/:id/notes` (`admin:write:reports`): `content` (1 to 2,000
    /// characters). Answers the note.
    @Sendable func create(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (me, _) = try await access.staff(of: request, scope: "admin:write:reports")
        let id = try StaffAccess.id(context)
        guard let content = try Self.content(try await APIParams.read(request), keys: ["content"]) else {
            throw NodeError.validation("Validation failed: Content can't be blank")
        }
        let note = try await access.write { db -> APIReportNote? in
            guard try db.moderation.report(id: id) != nil else { return nil }
            let stored = try db.reportNotes.add(ReportNote(reportId: id, accountId: me.id, content: content))
            return try Self.entity(stored, viewer: me, node: node, db: db)
        }
        guard let note else { throw NodeError.notFound("Record not found") }
        return APIResponse.json(note)
    }

    /// `DELETE /api/v1/admin/reports/:id/notes/:note_id` (`admin:write:reports`): by its
    /// author or an admin. Answers `{}`.
    @Sendable func delete(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (me, role) = try await access.staff(of: request, scope: "admin:write:reports")
        let id = try StaffAccess.id(context)
        guard let noteId = context.parameters.get("note_id").flatMap({ Int64($0) }) else { throw NodeError.notFound("Record not found") }
        try await access.write { db in
            guard let note = try db.reportNotes.notes(of: id).first(where: { $0.id == noteId }) else { throw NodeError.notFound("Record not found") }
            guard note.accountId == me.id || role >= .admin else { throw NodeError.forbidden("This action is not allowed") }
            _ = try db.reportNotes.delete(id: noteId, of: id)
        }
        return APIResponse.empty()
    }

    /// The note text of the first of `keys` sent, trimmed; nil when none is sent or all are blank.
    /// - Throws: 422 when it is over the limit.
    static func content(_ params: APIParams, keys: [String]) throws(NodeError) -> String? {
        guard let text = keys.lazy.compactMap({ params.string($0)?.trimmingCharacters(in: .whitespacesAndNewlines) }).first(where: { !$0.isEmpty })
        else { return nil }
        guard text.count <= maxLength else { throw .validation("Validation failed: Content is too long (maximum is 2000 characters)") }
        return text
    }

    /// The entity of `note`.
    static func entity(_ note: ReportNote, viewer: Account, node: Node, db: Transaction) throws -> APIReportNote {
        let author = try note.accountId.flatMap { try db.accounts.find(id: $0) }
        return APIReportNote(id: String(note.id ?? 0), reportId: String(note.reportId), content: note.content,
                             account: try author.map { try ModerationRenderer(node: node, viewer: viewer, db: db).account($0) },
                             createdAt: Timestamps.iso8601(note.createdAt))
    }
}

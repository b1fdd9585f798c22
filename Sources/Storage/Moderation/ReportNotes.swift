import Foundation
import GRDB

extension Transaction {
    /// Moderators' notes on reports.
    public var reportNotes: ReportNotes { ReportNotes(db: session) }
}

/// Moderators' notes on reports.
public struct ReportNotes { let db: SQLSession }

extension ReportNotes {
    /// Stores a note. - Returns: It, with its id.
    public func add(_ note: ReportNote) throws -> ReportNote { try note.inserted(db) }

    /// The notes of `reportId`, oldest first.
    public func notes(of reportId: Int64) throws -> [ReportNote] {
        try ReportNote.filter(Column("report_id") == reportId).order(Column("id")).fetchAll(db)
    }

    /// How many notes each of `reportIds` has (reports without any are left out).
    public func counts(of reportIds: [Int64]) throws -> [Int64: Int] {
        guard !reportIds.isEmpty else { return [:] }
        let rows = try Row.fetchAll(db, sql: "SELECT report_id, COUNT(*) AS n FROM report_notes WHERE report_id IN (\(BatchQuery.ids)) GROUP BY report_id",
                                    arguments: [BatchQuery.json(reportIds)])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["report_id"] as Int64, $0["n"] as Int) })
    }

    /// Deletes the note `id` of `reportId`. - Returns: Whether it existed.
    public func delete(id: Int64, of reportId: Int64) throws -> Bool {
        try ReportNote.filter(Column("id") == id && Column("report_id") == reportId).deleteAll(db) > 0
    }
}

import Foundation
import GRDB

/// A moderator's note on a report.
public struct ReportNote: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "report_notes"
    /// Row id.
    public var id: Int64?
    /// The report.
    public var reportId: Int64
    /// The moderator who wrote it; nil once their account is gone.
    public var accountId: Int64?
    /// The note, plain text.
    public var content: String
    /// When it was written.
    public var createdAt: Date

    /// A new note.
    public init(reportId: Int64, accountId: Int64?, content: String, at date: Date = Date()) {
        self.reportId = reportId
        self.accountId = accountId
        self.content = content
        self.createdAt = date
    }

    /// Takes the row id GRDB assigned on insert.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

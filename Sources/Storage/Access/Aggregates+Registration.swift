import GRDB

// The aggregates of who may join and whom the node federates with: declared here, beside
// `Aggregates.swift`, each with its queries in the file named after it.

extension Transaction {
    /// Sign-up requests (approval mode) and invite links.
    public var registrations: Registrations { Registrations(db: session) }
    /// The allow list of allow-list federation, and the federation mode.
    public var domainAllows: DomainAllows { DomainAllows(db: session) }
    /// Moderators' notes on reports.
    public var reportNotes: ReportNotes { ReportNotes(db: session) }
}

/// Sign-up requests (approval mode) and invite links.
public struct Registrations { let db: SQLSession }
/// The allow list of allow-list federation, and the federation mode.
public struct DomainAllows { let db: SQLSession }
/// Moderators' notes on reports.
public struct ReportNotes { let db: SQLSession }

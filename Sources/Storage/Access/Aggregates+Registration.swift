import GRDB

// The aggregates of who may join and whom the node federates with: declared here, beside
// `Aggregates.swift`, each with its queries in the file named after it.

extension Transaction {
    /// Sign-up requests (approval mode) and invite links.
    public var registrations: Registrations { Registrations(db: grdb) }
    /// The allow list of allow-list federation, and the federation mode.
    public var domainAllows: DomainAllows { DomainAllows(db: grdb) }
    /// Moderators' notes on reports.
    public var reportNotes: ReportNotes { ReportNotes(db: grdb) }
}

/// Sign-up requests (approval mode) and invite links.
public struct Registrations { let db: Database }
/// The allow list of allow-list federation, and the federation mode.
public struct DomainAllows { let db: Database }
/// Moderators' notes on reports.
public struct ReportNotes { let db: Database }

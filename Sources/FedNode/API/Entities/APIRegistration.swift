import Core

/// Mastodon's `Admin::DomainAllow` entity: a domain federated with in allow-list mode.
public struct APIAdminDomainAllow: Codable, Sendable, Equatable {
    /// Allow id.
    public var id: String
    /// The domain.
    public var domain: String
    /// When it was allowed.
    public var createdAt: String
}

/// A moderator's note on a report, as Mastodon keeps them for its web UI and Pleroma/Akkoma
/// expose them (`/api/v1/admin/reports/:id/notes`).
public struct APIReportNote: Codable, Sendable, Equatable {
    /// Note id.
    public var id: String
    /// The report.
    public var reportId: String
    /// The note, plain text.
    public var content: String
    /// The moderator who wrote it; nil once their account is gone.
    public var account: APIAdminAccount?
    /// When it was written.
    public var createdAt: String
}

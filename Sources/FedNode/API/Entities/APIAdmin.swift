import Core

/// Mastodon's `Role` entity, as `Admin::Account.role` and `CredentialAccount.role` carry it.
public struct APIRole: Codable, Sendable, Equatable {
    /// Role id (Mastodon's defaults: 3 owner, 2 admin, 1 moderator, -99 everyone).
    public var id: String
    /// Display name.
    public var name: String
    /// Badge colour (none).
    public var color: String
    /// Mastodon's permission bit field, as a string.
    public var permissions: String
    /// Whether the role is shown as a badge on the profile.
    public var highlighted: Bool
}

/// Mastodon's `Admin::Account` entity: an account as moderators see it.
public struct APIAdminAccount: Codable, Sendable, Equatable {
    /// Account id.
    public var id: String
    /// Username, without the domain.
    public var username: String
    /// The domain, `nil` for local accounts.
    public var domain: String?
    /// When the account was created.
    public var createdAt: String
    /// Sign-in email (local accounts).
    public var email: String?
    /// Last sign-in address (not kept).
    public var ip: String?
    /// Sign-in addresses (not kept).
    public var ips: [String]
    /// Interface language.
    public var locale: String?
    /// Reason given when signing up in approval mode.
    public var inviteRequest: String?
    /// Staff role.
    public var role: APIRole
    /// Whether the email is confirmed.
    public var confirmed: Bool
    /// Whether the account is approved (approval-mode sign-ups).
    public var approved: Bool
    /// Whether sign-in is disabled.
    public var disabled: Bool
    /// Whether the account is silenced (hidden from public timelines).
    public var silenced: Bool
    /// Whether the account is suspended.
    public var suspended: Bool
    /// Whether its media is forced sensitive.
    public var sensitized: Bool
    /// The public account entity.
    public var account: APIAccount
    /// FedNode: the failed sign-ins counted now for a local account's email (absent: none).
    public var failedSignIns: APIFailedSignIns?
}

/// Mastodon's `Admin::Report` entity.
public struct APIAdminReport: Codable, Sendable, Equatable {
    /// Report id.
    public var id: String
    /// Whether it is resolved.
    public var actionTaken: Bool
    /// When it was resolved.
    public var actionTakenAt: String?
    /// `spam`, `legal`, `violation` or `other`.
    public var category: String
    /// The reporter's words.
    public var comment: String
    /// Whether it was forwarded to (or came from) the reported account's server.
    public var forwarded: Bool
    /// When it was made.
    public var createdAt: String
    /// When it last changed.
    public var updatedAt: String
    /// Who reported.
    public var account: APIAdminAccount
    /// Who is reported.
    public var targetAccount: APIAdminAccount
    /// The moderator handling it.
    public var assignedAccount: APIAdminAccount?
    /// Who resolved it.
    public var actionTakenByAccount: APIAdminAccount?
    /// The reported posts that still exist.
    public var statuses: [APIStatus]
    /// The rules said to be broken.
    public var rules: [APIRule]
}

/// Mastodon's `Report` entity, as its reporter sees it.
public struct APIReport: Codable, Sendable, Equatable {
    /// Report id.
    public var id: String
    /// Whether moderators resolved it.
    public var actionTaken: Bool
    /// When it was resolved.
    public var actionTakenAt: String?
    /// `spam`, `legal`, `violation` or `other`.
    public var category: String
    /// The reporter's words.
    public var comment: String
    /// Whether a copy went to the reported account's server.
    public var forwarded: Bool
    /// When it was made.
    public var createdAt: String
    /// The reported posts.
    public var statusIds: [String]?
    /// The rules said to be broken.
    public var ruleIds: [String]?
    /// Who is reported.
    public var targetAccount: APIAccount
}

/// Mastodon's `Admin::DomainBlock` entity.
public struct APIAdminDomainBlock: Codable, Sendable, Equatable {
    /// Block id.
    public var id: String
    /// The domain.
    public var domain: String
    /// SHA-256 of the domain, hex.
    public var digest: String
    /// When it was made.
    public var createdAt: String
    /// `silence`, `suspend` or `noop`.
    public var severity: String
    /// Whether media from the domain is not cached.
    public var rejectMedia: Bool
    /// Whether reports from the domain are ignored.
    public var rejectReports: Bool
    /// A note for the moderators.
    public var privateComment: String?
    /// The reason shown publicly.
    public var publicComment: String?
    /// Whether the public list shows the domain partly hidden.
    public var obfuscate: Bool
}

/// Mastodon's public `DomainBlock` entity (`GET /api/v1/instance/domain_blocks`).
public struct APIDomainBlock: Codable, Sendable, Equatable {
    /// The domain, partly starred when obfuscated.
    public var domain: String
    /// SHA-256 of the domain, hex.
    public var digest: String
    /// `silence` or `suspend`.
    public var severity: String
    /// The public reason.
    public var comment: String?
}

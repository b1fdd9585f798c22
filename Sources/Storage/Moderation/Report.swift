import Foundation
import GRDB

/// A report of an account (and some of its posts) to the moderators, by a local user or by
/// another server (`Flag`).
public struct Report: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "reports"
    /// Row id (the API id).
    public var id: Int64?
    /// Who reported: a local account, or the remote actor that sent the `Flag`.
    public var accountId: Int64
    /// The reported account.
    public var targetAccountId: Int64
    /// The reporter's words.
    public var comment: String
    /// `spam`, `legal`, `violation` or `other`.
    public var category: String
    /// The instance rules said to be broken, comma-separated ids.
    public var ruleIds: String
    /// The reported posts, comma-separated ids.
    public var statusIds: String
    /// Whether a copy went (or came) to the reported account's server.
    public var forwarded: Bool
    /// The `Flag` activity's id, for reports from other servers.
    public var uri: String?
    /// The moderator handling it.
    public var assignedAccountId: Int64?
    /// When it was resolved (nil while open).
    public var actionTakenAt: Date?
    /// Who resolved it.
    public var actionTakenByAccountId: Int64?
    /// When it was made.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date

    /// A new, open report.
    public init(accountId: Int64, targetAccountId: Int64, comment: String, category: String, ruleIds: [Int64] = [],
                statusIds: [Int64] = [], forwarded: Bool = false, uri: String? = nil, at date: Date = Date()) {
        self.accountId = accountId
        self.targetAccountId = targetAccountId
        self.comment = comment
        self.category = category
        self.ruleIds = ruleIds.map(String.init).joined(separator: ",")
        self.statusIds = statusIds.map(String.init).joined(separator: ",")
        self.forwarded = forwarded
        self.uri = uri
        self.createdAt = date
        self.updatedAt = date
    }

    /// The reported post ids.
    public var postIds: [Int64] { statusIds.split(separator: ",").compactMap { Int64($0) } }
    /// The rule ids.
    public var rules: [Int64] { ruleIds.split(separator: ",").compactMap { Int64($0) } }

    /// Takes the row id GRDB assigned on insert.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A domain the instance moderates, with Mastodon's severities (`silence`, `suspend`, `noop`).
public struct InstanceDomainBlock: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "instance_domain_blocks"
    /// Row id (the API id).
    public var id: Int64?
    /// The domain (its subdomains are covered too).
    public var domain: String
    /// `silence`, `suspend` or `noop`.
    public var severity: String
    /// Whether media from the domain is not cached.
    public var rejectMedia: Bool
    /// Whether reports from the domain are ignored.
    public var rejectReports: Bool
    /// A note for the moderators.
    public var privateComment: String
    /// The reason shown publicly.
    public var publicComment: String
    /// Whether the public list shows the domain partly hidden.
    public var obfuscate: Bool
    /// When it was made.
    public var createdAt: Date

    /// A new block.
    public init(domain: String, severity: String, rejectMedia: Bool = false, rejectReports: Bool = false,
                privateComment: String = "", publicComment: String = "", obfuscate: Bool = false, at date: Date = Date()) {
        self.domain = domain
        self.severity = severity
        self.rejectMedia = rejectMedia
        self.rejectReports = rejectReports
        self.privateComment = privateComment
        self.publicComment = publicComment
        self.obfuscate = obfuscate
        self.createdAt = date
    }

    /// Takes the row id GRDB assigned on insert.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Staff roles, from most to least powerful; everyone else is a `user`.
public enum StaffRole: String, Sendable, CaseIterable, Comparable {
    /// Created the node; cannot be demoted by admins.
    case owner
    /// Full moderation and settings.
    case admin
    /// Reports and account moderation.
    case moderator
    /// No staff rights.
    case user

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 3 }

    /// A role is "less" when it is less powerful.
    public static func < (lhs: StaffRole, rhs: StaffRole) -> Bool { lhs.rank > rhs.rank }
}

/// One of the instance's rules, shown at sign-up and picked in reports.
public struct InstanceRule: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "instance_rules"
    /// Row id (the API id).
    public var id: Int64?
    /// The rule.
    public var text: String
    /// A longer explanation.
    public var hint: String
    /// Order among the rules.
    public var position: Int
    /// When it was added.
    public var createdAt: Date

    /// A new rule at `position`.
    public init(text: String, hint: String = "", position: Int, at date: Date = Date()) {
        self.text = text
        self.hint = hint
        self.position = position
        self.createdAt = date
    }

    /// Takes the row id GRDB assigned on insert.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

import Foundation
import GRDB

/// A domain federated with in allow-list mode (Mastodon's `DomainAllow`).
public struct DomainAllow: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "domain_allows"
    /// Row id.
    public var id: Int64?
    /// The domain (its subdomains are covered too), lowercased.
    public var domain: String
    /// When it was allowed.
    public var createdAt: Date

    /// A new allow of `domain`.
    public init(domain: String, at date: Date = Date()) {
        self.domain = domain.lowercased()
        self.createdAt = date
    }

    /// Takes the row id GRDB assigned on insert.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Whom the node federates with: everyone not blocked, or only the allowed domains.
public enum FederationMode: String, Sendable, CaseIterable {
    /// Every domain but the blocked ones (the default).
    case blocklist
    /// Only the domains in the allow list (and not blocked).
    case allowlist
}

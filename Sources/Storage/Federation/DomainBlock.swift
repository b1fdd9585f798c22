import Foundation
import GRDB

/// A whole remote domain the node refuses to talk to.
public struct DomainBlock: Record, Equatable {
    /// Table name.
    public static let databaseTableName = "domain_blocks"
    /// The blocked host.
    public var domain: String
    /// When it was blocked.
    public var createdAt: Date

    /// Creates a domain block row.
    public init(domain: String, createdAt: Date = Date()) {
        self.domain = domain
        self.createdAt = createdAt
    }
}

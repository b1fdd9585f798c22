import GRDB

extension DomainBlockList {
    /// Whether `authority` (`host[:port]`, any letter case) is blocked, itself or through a
    /// parent domain.
    public func isBlocked(_ authority: String) throws -> Bool { try DomainBlocks.isBlocked(authority, in: db) }
}

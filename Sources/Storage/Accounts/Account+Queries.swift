import Foundation
import GRDB

extension Account {
    /// The local account named `username` (ignoring case).
    public static func local(_ username: String) -> QueryInterfaceRequest<Account> {
        filter(Column("username") == username && Column("domain") == nil)
    }

    /// The account whose actor id is `uri`.
    public static func withURI(_ uri: String) -> QueryInterfaceRequest<Account> {
        filter(Column("uri") == uri)
    }

    /// The account `username@domain`, local when `domain` is `nil`.
    public static func handle(_ username: String, domain: String?) -> QueryInterfaceRequest<Account> {
        guard let domain else { return local(username) }
        return filter(Column("username") == username && Column("domain") == domain.lowercased())
    }

    /// Every local account, oldest first.
    public static var allLocal: QueryInterfaceRequest<Account> {
        filter(Column("domain") == nil).order(Column("id"))
    }

    /// Accepted followers of `accountId`.
    public static func followersCount(of accountId: Int64, in db: SQLSession) throws -> Int {
        try Follow.filter(Column("target_account_id") == accountId && Column("state") == FollowState.accepted)
            .fetchCount(db)
    }

    /// Accounts `accountId` follows (accepted).
    public static func followingCount(of accountId: Int64, in db: SQLSession) throws -> Int {
        try Follow.filter(Column("account_id") == accountId && Column("state") == FollowState.accepted)
            .fetchCount(db)
    }

    /// Posts (not boosts) written by `accountId`.
    public static func postsCount(of accountId: Int64, in db: SQLSession) throws -> Int {
        try Post.filter(Column("account_id") == accountId && Column("reblog_of_id") == nil).fetchCount(db)
    }
}

extension Credential {
    /// Credentials with this email, ignoring case.
    public static func email(_ email: String) -> QueryInterfaceRequest<Credential> {
        filter(Column("email") == email)
    }
}

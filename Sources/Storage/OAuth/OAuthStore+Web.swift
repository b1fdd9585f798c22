import Foundation
import GRDB

extension OAuthStore {
    /// The tokens of `accountId` still in force (not revoked, not expired), newest first: the
    /// web app's sessions and the apps a person authorised, for the settings page.
    public func activeTokens(of accountId: Int64, now: Date = Date(), limit: Int = 100) throws -> [OAuthToken] {
        try OAuthToken.filter(Column("account_id") == accountId && Column("revoked_at") == nil
                              && (Column("expires_at") == nil || Column("expires_at") > now))
            .order(Column("id").desc).limit(limit).fetchAll(db)
    }

    /// Revokes token `id` when it belongs to `accountId`.
    /// - Returns: Whether a token was revoked.
    @discardableResult
    public func revoke(tokenId id: Int64, of accountId: Int64, at date: Date = Date()) throws -> Bool {
        try db.execute(sql: "UPDATE oauth_tokens SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL",
                       arguments: [date, id, accountId])
        return db.changesCount > 0
    }
}

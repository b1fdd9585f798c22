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
        try OAuthToken.filter(Column("id") == id && Column("account_id") == accountId && Column("revoked_at") == nil)
            .updateAll(db, Column("revoked_at").set(to: date)) > 0
    }
}

import Foundation
import GRDB

/// Sign-in details of a local account. Never serialised into any API response.
public struct Credential: Record, Equatable {
    /// Table name.
    public static let databaseTableName = "credentials"
    /// The account these credentials sign in to.
    public var accountId: Int64
    /// Sign-in email, unique ignoring case.
    public var email: String
    /// scrypt hash with its salt and parameters (see `PasswordHasher`).
    public var passwordHash: String
    /// When the account signed up.
    public var createdAt: Date
    /// Last successful sign-in.
    public var lastSignInAt: Date?

    /// Creates credentials for an account.
    public init(accountId: Int64, email: String, passwordHash: String, createdAt: Date = Date()) {
        self.accountId = accountId
        self.email = email
        self.passwordHash = passwordHash
        self.createdAt = createdAt
    }
}

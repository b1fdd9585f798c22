import Foundation
import GRDB

/// The id of a deleted local object, so fetching it answers 410 Gone instead of 404.
public struct Tombstone: Record, Equatable {
    /// Table name.
    public static let databaseTableName = "tombstones"
    /// The deleted object's id.
    public var uri: String
    /// Its former owner.
    public var accountId: Int64?
    /// When it was deleted.
    public var deletedAt: Date
    /// For a deleted local actor: the account id its last deliveries are signed as.
    public var signerId: Int64?
    /// For a deleted local actor: its key id, kept until those deliveries are done.
    public var keyId: String?
    /// For a deleted local actor: its private key (PKCS#8 PEM), kept until those deliveries are done.
    public var privateKeyPem: String?

    /// Creates a tombstone row.
    public init(uri: String, accountId: Int64?, deletedAt: Date = Date()) {
        self.uri = uri
        self.accountId = accountId
        self.deletedAt = deletedAt
    }
}

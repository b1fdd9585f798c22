import GRDB

/// The `featured` collection (pinned posts) a remote actor's document names, so `Add` and
/// `Remove` can be checked against it.
public struct FeaturedCollection: Record, Equatable {
    /// Table name.
    public static let databaseTableName = "featured_collections"
    /// The remote account.
    public var accountId: Int64
    /// The collection's id.
    public var url: String

    /// Creates a row.
    public init(accountId: Int64, url: String) {
        self.accountId = accountId
        self.url = url
    }
}

import Foundation
import GRDB

/// One activity to deliver to one inbox, retried until it succeeds or gives up.
public struct Delivery: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "delivery_queue"
    /// Snowflake id.
    public var id: Int64
    /// The activity delivered.
    public var activityUri: String
    /// The local account that signs the request.
    public var accountId: Int64
    /// Target inbox.
    public var inboxUrl: String
    /// Host of the target inbox, for per-domain health.
    public var domain: String
    /// Body to send.
    public var payload: Data
    /// Attempts so far.
    public var attempts: Int = 0
    /// Not before this time.
    public var nextAttemptAt: Date
    /// HTTP status of the last attempt.
    public var lastStatus: Int?
    /// Error of the last attempt.
    public var lastError: String?
    /// When it was queued.
    public var createdAt: Date

    /// Creates a delivery due now.
    public init(id: Int64 = Snowflake.next(), activityUri: String, accountId: Int64, inboxUrl: String, domain: String, payload: Data, createdAt: Date = Date()) {
        self.id = id
        self.activityUri = activityUri
        self.accountId = accountId
        self.inboxUrl = inboxUrl
        self.domain = domain
        self.payload = payload
        self.nextAttemptAt = createdAt
        self.createdAt = createdAt
    }
}

/// Delivery health of one remote domain.
public struct DeliveryDomain: Record, Equatable {
    /// Table name.
    public static let databaseTableName = "delivery_domains"
    /// The host.
    public var domain: String
    /// Start of the current run of failures.
    public var failingSince: Date?
    /// Most recent failure.
    public var lastFailureAt: Date?
    /// Most recent success.
    public var lastSuccessAt: Date?
    /// Skipped by delivery until it answers again.
    public var unavailable: Bool = false

    /// Creates a healthy domain row.
    public init(domain: String) {
        self.domain = domain
    }
}

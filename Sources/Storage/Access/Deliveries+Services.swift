import GRDB

extension Deliveries {
    /// Drops the queued deliveries of the activity `activityURI` that were not sent yet.
    public func cancelQueued(activityURI: String) throws {
        try db.execute(sql: "DELETE FROM delivery_queue WHERE activity_uri = ?", arguments: [activityURI])
    }
}

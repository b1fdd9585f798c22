import Storage

/// Clearing a person's notifications.
package struct NotificationService: Sendable {
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Deletes every notification of `owner`'s.
    package func clear(of owner: Account) async throws(NodeError) {
        _ = try await node.write("notifications") { db in try db.notifications.deleteAll(of: owner.id) }
    }

    /// Deletes notification `id` of `owner`'s.
    /// - Throws: `NodeError.notFound` when `owner` has no such notification.
    package func dismiss(_ id: Int64, of owner: Account) async throws(NodeError) {
        let deleted = try await node.write("notifications") { db in try db.notifications.delete(id: id, of: owner.id) }
        guard deleted > 0 else { throw .notFound("Record not found") }
    }

    /// Deletes the notifications of group `key` of `owner`'s (repeating it changes nothing).
    package func dismissGroup(_ key: NotificationGroupKey, of owner: Account) async throws(NodeError) {
        _ = try await node.write("notifications") { db in try db.notifications.deleteGroup(key, of: owner.id) }
    }
}

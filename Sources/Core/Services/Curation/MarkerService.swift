import Storage

/// Reading positions in the home timeline and the notifications, kept for a person's apps.
package struct MarkerService: Sendable {
    /// The timelines a marker can be saved for.
    package static let timelines = ["home", "notifications"]

    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Saves `owner`'s last-read id for each timeline given, raising each marker's version.
    /// - Parameter positions: Timeline name and last-read id, in order.
    /// - Returns: The markers saved.
    /// - Throws: `NodeError.validation` when no position is given, a timeline is unknown or an
    ///   id is not a non-negative id.
    package func save(_ positions: [(timeline: String, lastReadId: String)], by owner: Account) async throws(NodeError) -> [Marker] {
        guard !positions.isEmpty else { throw .validation("Validation failed: home or notifications last_read_id is required") }
        for position in positions {
            guard Self.timelines.contains(position.timeline) else { throw .validation("Validation failed: Timeline is not included in the list") }
            guard position.lastReadId.count <= 20, Int64(position.lastReadId).map({ $0 >= 0 }) == true else {
                throw .validation("Validation failed: Last read id must be an id")
            }
        }
        let saved = positions
        return try await node.write("markers") { db in
            try saved.map { try db.markers.save(account: owner.id, timeline: $0.timeline, lastReadId: $0.lastReadId) }
        }
    }
}

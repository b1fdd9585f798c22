import Storage

/// Follow suggestions a person has turned down.
package struct SuggestionService: Sendable {
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Never suggests account `accountId` to `viewer` again (repeating it changes nothing).
    package func dismiss(_ accountId: Int64, by viewer: Account) async throws(NodeError) {
        try await node.write("suggestion dismissal") { db in try db.suggestions.dismiss(accountId, by: viewer.id) }
    }
}

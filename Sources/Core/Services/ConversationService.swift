import Storage

/// The direct-message conversations in a person's list.
package struct ConversationService: Sendable {
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Marks `owner`'s conversation `id` read, or (with `unread`) unread again.
    /// - Returns: The conversation as marked.
    /// - Throws: `NodeError.notFound` for a conversation that is not `owner`'s.
    package func mark(_ id: Int64, unread: Bool = false, by owner: Account) async throws(NodeError) -> Conversation {
        try await node.write("conversation") { db -> Conversation in
            var conversation = try Self.owned(id, by: owner, in: db)
            try db.conversations.mark(conversation, unread: unread)
            conversation.unread = unread
            return conversation
        }
    }

    /// Removes conversation `id` from `owner`'s list; its posts stay.
    /// - Throws: `NodeError.notFound` for a conversation that is not `owner`'s.
    package func remove(_ id: Int64, by owner: Account) async throws(NodeError) {
        try await node.write("conversation") { db in try db.conversations.delete(try Self.owned(id, by: owner, in: db)) }
    }

    private static func owned(_ id: Int64, by owner: Account, in db: Transaction) throws -> Conversation {
        guard let conversation = try db.conversations.find(id: id, owner: owner.id) else { throw NodeError.notFound("Record not found") }
        return conversation
    }
}

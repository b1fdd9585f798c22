import Foundation
import Storage

/// A person's private notes about other accounts, which only they see.
package struct AccountNoteService: Sendable {
    /// The longest note, in code points (as Ruby counts).
    package static let maxNote = 2_000

    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Sets `author`'s note about `target`; a blank note removes it, as Mastodon does.
    /// - Throws: `NodeError.validation` for a note over `maxNote` code points.
    package func set(_ note: String, about target: Account, by author: Account) async throws(NodeError) {
        let comment = note.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "" : note
        guard comment.unicodeScalars.count <= Self.maxNote else {
            throw .validation("Validation failed: Comment is too long (maximum is 2000 characters)")
        }
        try await node.write("account note") { db in try db.accountNotes.set(account: author.id, target: target.id, comment: comment) }
    }
}

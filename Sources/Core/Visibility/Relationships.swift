import Storage

/// Questions about follows and blocks: who blocks whom, who follows whom. Asked by the use
/// cases, the inbox handlers and the client API alike.
package enum Relationships {
    /// Whether `a` blocks `b` or `b` blocks `a`.
    package static func blocks(_ a: Int64, _ b: Int64, in db: Transaction) throws -> Bool {
        try db.blocks.exists(between: a, and: b)
    }

    /// Whether `blocker` blocks `blocked` (one direction).
    package static func blocking(_ blocker: Int64, _ blocked: Int64, in db: Transaction) throws -> Bool {
        try db.blocks.exists(blocker: blocker, blocked: blocked)
    }

    /// The accepted follow of `follower` to `target`, if any.
    package static func isFollowing(_ follower: Int64, _ target: Int64, in db: Transaction) throws -> Bool {
        try db.follows.isAccepted(follower: follower, target: target)
    }
}

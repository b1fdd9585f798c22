import Activity
import Foundation
import Storage

/// A local account's data in the shapes Mastodon exports: the relationship lists as CSV
/// (`following_accounts.csv`, `followers.csv`, `blocked_accounts.csv`, `muted_accounts.csv`,
/// `bookmarks.csv`), and the whole archive as a ZIP (`AccountArchiveWriter`).
package struct AccountExport: Sendable {
    /// Which list a CSV holds.
    package enum List: String, Sendable, CaseIterable {
        /// Accounts followed (or asked to follow): Mastodon's `following_accounts.csv`.
        case following
        /// Accounts that follow: `followers.csv`.
        case followers
        /// Accounts blocked: `blocked_accounts.csv` (no header, as Mastodon writes it).
        case blocks
        /// Accounts muted: `muted_accounts.csv`.
        case mutes
        /// Posts bookmarked, by ActivityPub id: `bookmarks.csv` (no header).
        case bookmarks

        /// The file name in Mastodon's archive.
        package var archiveName: String {
            switch self {
            case .following: "following_accounts.csv"
            case .followers: "followers.csv"
            case .blocks: "blocked_accounts.csv"
            case .mutes: "muted_accounts.csv"
            case .bookmarks: "bookmarks.csv"
            }
        }
    }

    /// Most rows in one list (the rest is left out).
    package static let maxRows = 100_000
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// The CSV text of `list` for `account`.
    package func csv(_ list: List, of account: Account) async throws(NodeError) -> String {
        let urls = node.urls
        do {
            return try await node.database.read { db in try Self.csv(list, of: account, urls: urls, in: db) }
        } catch { throw .internal("exporting \(list.rawValue): \(error)") }
    }

    /// The CSV text of `list`, read in `db`.
    package static func csv(_ list: List, of account: Account, urls: NodeURLs, in db: Transaction) throws -> String {
        let archive = db.accountArchive
        let address = { (other: Account) in "\(other.username)@\(other.domain ?? urls.domain)" }
        switch list {
        case .following:
            // FedNode keeps neither per-follow boost hiding nor post notifications: boosts
            // show and notifications are off for every follow.
            return CSVTable.line(["Account address", "Show boosts", "Notify on new posts", "Languages"])
                + (try archive.following(of: account.id, limit: maxRows)).map { CSVTable.line([address($0), "true", "false", ""]) }.joined()
        case .followers:
            return CSVTable.line(["Account address"]) + (try archive.followers(of: account.id, limit: maxRows)).map { CSVTable.line([address($0)]) }.joined()
        case .blocks:
            return (try archive.blocked(by: account.id, limit: maxRows)).map { CSVTable.line([address($0)]) }.joined()
        case .mutes:
            return CSVTable.line(["Account address", "Hide notifications"])
                + (try archive.muted(by: account.id, limit: maxRows)).map { CSVTable.line([address($0.account), $0.hidesNotifications ? "true" : "false"]) }.joined()
        case .bookmarks:
            return (try archive.bookmarkedURIs(by: account.id, limit: maxRows)).map { CSVTable.line([$0]) }.joined()
        }
    }
}

import Activity
import Foundation
import Storage

/// Reads a remote account's newest posts from its outbox once a local follow of it is
/// accepted, so the new follower sees a feed at once instead of only what is posted later.
///
/// It runs after the follow is accepted rather than whenever a profile is first resolved:
/// profiles are resolved for every mention, signer and search hit, and reading each one's outbox
/// would multiply the node's fetches for posts nobody asked for; a follow is the moment the posts
/// matter, and because the follow is accepted by then, storing them fans them out to the
/// follower's home timeline like any delivered post.
///
/// Each item goes through `CreateHandler`, exactly as if the account had sent it to our inbox:
/// the same origin checks, limits, sanitising and fan-out. Bounded: at most `maxItems`
/// activities from at most `maxPages` pages; every document is a signed, SSRF-guarded
/// `ObjectFetcher` GET (size- and time-bounded) on the account's own host.
package struct OutboxBackfill: Sendable {
    /// Most outbox activities read per backfill.
    package static let maxItems = 20
    /// Most collection pages fetched per backfill.
    package static let maxPages = 2
    /// The node storing the posts.
    package let node: Node

    /// Starts a backfill of `account`'s outbox in the background, within the node's bound on
    /// such jobs; returns at once.
    package static func start(for account: Account, node: Node) async {
        guard !account.isLocal else { return }
        await node.backgroundJobs.start("outbox \(account.uri)") {
            await OutboxBackfill(node: node).run(for: account)
        }
    }

    /// Fetches `account`'s newest activities and stores the posts its own `Create`s carry.
    /// - Returns: How many of them are now stored (including those already known).
    @discardableResult
    package func run(for account: Account) async -> Int {
        guard !account.isLocal, let host = ASToAccount.authority(of: account.uri) else { return 0 }
        let items: [ASObject]
        do { items = try await newestItems(of: account, host: host) } catch {
            node.logger.info("outbox backfill failed", metadata: ["account": "\(account.uri)", "error": "\(error)"])
            return 0
        }
        var stored = 0
        // Oldest first, so a comment's parent is stored before the comment.
        for activity in items.reversed() where Self.isOwnCreate(activity, of: account, host: host) {
            let context = InboxContext(node: node, activity: activity, actor: account)
            do {
                if try await CreateHandler().handle(context) == .processed { stored += 1 }
            } catch {
                node.logger.debug("outbox item refused", metadata: ["id": "\(activity.id ?? "")", "error": "\(error)"])
            }
        }
        return stored
    }

    /// Whether `activity` is a `Create` by `account` of an object on `account`'s own host: the
    /// only items taken from an outbox (an Announce would name others' posts).
    package static func isOwnCreate(_ activity: ASObject, of account: Account, host: String) -> Bool {
        guard activity.hasType("Create"), activity.actor?.id == account.uri, let objectId = activity.object?.id else { return false }
        return ASToAccount.authority(of: objectId) == host
    }

    /// The embedded activities of the outbox's first pages, newest first, at most `maxItems`.
    private func newestItems(of account: Account, host: String) async throws(NodeError) -> [ASObject] {
        guard let outbox = account.outboxUrl else { return [] }
        let collection = try await fetch(outbox, on: host)
        var items = Self.embedded(collection)
        var next = collection.first
        var pages = 0
        while items.count < Self.maxItems, pages < Self.maxPages, let reference = next {
            // A page embedded in a document from the origin is the origin's; a linked one is fetched.
            let page: ASObject
            if let embedded = reference.object { page = embedded } else { page = try await fetch(reference.id ?? "", on: host) }
            items += Self.embedded(page)
            next = page.next
            pages += 1
        }
        return Array(items.prefix(Self.maxItems))
    }

    /// The document at `url`, which must be on `host` before and after any redirect.
    private func fetch(_ url: String, on host: String) async throws(NodeError) -> ASObject {
        guard ASToAccount.authority(of: url) == host else { throw .badRequest("\(url.prefix(100)) is not on \(host)") }
        let document = try await ObjectFetcher(node: node).fetch(url)
        guard document.id.flatMap(ASToAccount.authority(of:)) == host else { throw .badRequest("\(url.prefix(100)) answered from another host") }
        return document
    }

    /// The activities embedded in a collection or page (bare ids are skipped, not fetched).
    private static func embedded(_ collection: ASObject) -> [ASObject] {
        (collection.items ?? []).compactMap(\.object)
    }
}

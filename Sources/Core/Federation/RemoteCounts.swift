import Activity
import Foundation
import Storage

/// The sizes a remote actor's origin reports for its `followers`, `following` and `outbox`
/// collections (their `totalItems`), read when the actor is resolved or refreshed. A figure
/// that could not be read is `nil` and leaves the stored one as it was.
package struct RemoteCounts: Sendable, Equatable {
    /// Followers at the origin.
    package var followers: Int?
    /// Accounts followed at the origin.
    package var following: Int?
    /// Posts at the origin.
    package var statuses: Int?

    /// Figures are read at most this often per actor (when its profile is opened or it is
    /// resolved again): minutes, so a profile's counts follow the origin closely.
    package static let minimumInterval: TimeInterval = 600
    /// The longest the three reads may take together.
    package static let timeout: Duration = .seconds(5)

    /// Whether the counts of an actor last fetched at `lastFetch` should be read again.
    package static func isDue(lastFetch: Date?, now: Date) -> Bool {
        guard let lastFetch else { return true }
        return now.timeIntervalSince(lastFetch) >= minimumInterval
    }

    /// Reads the three collections of `actor` at once (signed GETs), within `timeout`.
    /// Collections on another host than the actor are not fetched.
    package static func fetch(of actor: ASObject, node: Node, timeout: Duration = timeout) async -> RemoteCounts {
        let host = actor.id.flatMap(ASToAccount.authority(of:))
        let targets: [(Figure, String?)] = [(.followers, actor.followers), (.following, actor.following), (.outbox, actor.outbox)]
        var counts = RemoteCounts()
        await withTaskGroup(of: (Figure, Int?)?.self) { group in
            var pending = 0
            for case let (figure, url?) in targets where host != nil && ASToAccount.authority(of: url) == host {
                pending += 1
                group.addTask { (figure, await totalItems(at: url, node: node)) }
            }
            guard pending > 0 else { return }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            // The first nil is the deadline: the reads still running are cancelled (libcurl
            // aborts their transfers) and keep their old figures.
            for await result in group {
                guard let (figure, value) = result else { break }
                counts.set(figure, value)
                pending -= 1
                if pending == 0 { break }
            }
            group.cancelAll()
        }
        return counts
    }

    /// The three figures, one per collection read.
    private enum Figure: Sendable {
        case followers, following, outbox
    }

    private mutating func set(_ figure: Figure, _ value: Int?) {
        switch figure {
        case .followers: followers = value
        case .following: following = value
        case .outbox: statuses = value
        }
    }

    /// Copies the figures that were read onto `account`.
    package func apply(to account: inout Account) {
        if let followers { account.followersCount = max(0, followers) }
        if let following { account.followingCount = max(0, following) }
        if let statuses { account.statusesCount = max(0, statuses) }
    }

    /// `totalItems` of the collection at `url`, or `nil` when it cannot be read (hidden
    /// collections answer 401/403 or leave the figure out).
    private static func totalItems(at url: String, node: Node) async -> Int? {
        guard let collection = try? await ObjectFetcher(node: node).fetch(url) else { return nil }
        return collection.totalItems
    }
}

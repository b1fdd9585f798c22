import Foundation
import Signatures

/// The simulated fediverse every part of the suite shares: 10,000 remote accounts on 100
/// domains, the first 1,000 of them with real RSA keys (the inbox's senders, followed by the
/// one local reader), and the fixed names, ids and token that tie the parts together.
public enum BenchWorld {
    /// Remote accounts in the generated databases.
    public static let accountCount = 10_000
    /// Remote actors with keys: they sign inbox traffic and the reader follows them all.
    public static let keyedActorCount = 1_000
    /// Domains the remote accounts live on.
    public static let domainCount = 100
    /// Keys to keep: one per keyed actor, the reader's and the instance actor's.
    public static let keyCount = keyedActorCount + 2
    /// The node's identity in the generated databases (`fednode serve` adopts it).
    public static let localDomain = "bench.fednode.example"
    /// The node's public URL in the generated databases.
    public static let localBase = "https://\(localDomain)"
    /// The local account whose home timeline is measured.
    public static let readerName = "reader"
    /// The reader's bearer token for the client API (stored only as its SHA-256).
    public static let readerToken = "fednode-bench-reader-token-0001"
    /// The keyed actor with `popularFollowers` followers (its profile page is measured).
    public static let popularIndex = 0
    /// The keyed actor followed by the reader alone (the profile page to compare with).
    public static let quietIndex = 1
    /// Followers of the popular actor: remote accounts made for them, on their own domains.
    public static let popularFollowers = 100_000
    /// The hashtag every generated post carries (its tag timeline is measured).
    public static let hashtag = "photography"
    /// First generated post's time: posts span the year 2025.
    public static let postsStart = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01T00:00:00Z
    /// First inbox activity's `published` time, after every generated post.
    public static let inboxStart = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    /// Id of remote account `index` (time-ordered like every id, made at 2024-01-01).
    public static func accountId(_ index: Int) -> Int64 { (Int64(1_704_067_200_000) << 16) + Int64(index) }
    /// Id of the reader.
    public static var readerId: Int64 { accountId(accountCount) }
    /// Domain of remote account `index`.
    public static func domain(_ index: Int) -> String { "r\(index % domainCount).bench.example" }
    /// Username of remote account `index`.
    public static func username(_ index: Int) -> String { "u\(index)" }
    /// Actor id of remote account `index`.
    public static func actorURI(_ index: Int) -> String { "https://\(domain(index))/users/\(username(index))" }
    /// Key id of remote account `index`.
    public static func keyId(_ index: Int) -> String { actorURI(index) + "#main-key" }
    /// Actor id of the reader.
    public static var readerURI: String { "\(localBase)/users/\(readerName)" }

    /// Hex SHA-256, as the node stores tokens.
    public static func sha256Hex(_ text: String) -> String {
        Digest.sha256Hex(Array(text.utf8))
    }
}

import Foundation

/// Bounds on what a remote server may make this node fetch, hold and store. Remote text is cut
/// to these lengths *before* it is parsed or sanitised, so a hostile document costs little, and
/// it is truncated rather than refused: a long bio or caption still federates, shortened.
///
/// Mastodon limits its own users' bios to 500 characters but keeps remote ones much longer; we
/// keep 5,000 characters of a remote bio's HTML, which holds any real profile.
package enum RemoteLimits {
    /// Largest actor or key document fetched before a signature is verified, and largest
    /// ActivityPub document fetched at all (the client's own default is 4 MiB, for media).
    package static let maxDocumentBytes = 1024 * 1024
    /// How long fetching a signing key may take: the sender waits on it (and a slow origin
    /// holds one of the `concurrentKeyFetches` slots that long).
    package static let keyFetchTimeout: Duration = .seconds(10)
    /// How long fetching any other object may take.
    package static let objectFetchTimeout: Duration = .seconds(15)
    /// Remote key fetches starting at once, node-wide (more wait their turn, at most
    /// `keyFetchSlotHold` behind a fetch that hangs).
    package static let concurrentKeyFetches = 12
    /// How long one key fetch holds a node-wide slot at most before it goes on without it.
    package static let keyFetchSlotHold: Duration = .seconds(1)
    /// Key fetches in flight for one origin at most; more wait their origin's turn.
    package static let keyFetchesPerOrigin = 4
    /// Longest activity or object id accepted.
    package static let maxIdLength = 2048

    /// Display name, in characters.
    package static let displayName = 100
    /// Bio HTML, in characters, before sanitising.
    package static let note = 5_000
    /// Profile fields kept.
    package static let fields = 16
    /// A profile field's name or value, in characters.
    package static let fieldText = 255
    /// Post content HTML, in characters, before sanitising.
    package static let content = 100_000
    /// Content warning, in characters.
    package static let summary = 1_000
    /// Alt text, in characters.
    package static let altText = 1_500
    /// Characters kept of a poll choice.
    package static let pollOption = 200
    /// Tags (hashtags and mentions together) looked at per post.
    package static let tags = 64
    /// Mentions kept per post.
    package static let mentions = 64

    /// `text` cut to at most `limit` characters (grapheme clusters, so nothing is split).
    package static func truncated(_ text: String, to limit: Int) -> String {
        // Counting characters is linear; a UTF-8 size under the limit cannot exceed it.
        guard text.utf8.count > limit else { return text }
        return String(text.prefix(limit))
    }

    /// `url` when it is an absolute `http` or `https` URL with a host, else `nil`: values such
    /// as `javascript:...` or `data:...` from remote documents are dropped, never stored.
    package static func webURL(_ url: String?) -> String? {
        guard let url, url.utf8.count <= maxIdLength, let components = URLComponents(string: url),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { return nil }
        return url
    }
}

import Core
import Foundation

/// Mastodon's `Suggestion` entity (docs.joinmastodon.org/entities/Suggestion, 4.3 shape).
public struct APISuggestion: Codable, Sendable, Equatable {
    /// Deprecated single reason: `staff`, `past_interactions` or `global`.
    public var source: String
    /// Why the account is suggested: `friends_of_friends`, `most_interactions`, ...
    public var sources: [String]
    /// The suggested account.
    public var account: APIAccount

    /// The deprecated `source` Mastodon derives from `sources`: the first reason decides.
    public static func legacySource(of sources: [String]) -> String {
        switch sources.first {
        case "featured": "staff"
        case "friends_of_friends", "similar_to_recently_followed": "past_interactions"
        default: "global"
        }
    }
}

/// Reading the plain text of local posts: hashtags, mentions, and the HTML that is federated.
public enum TextParser {
    /// Hashtags in order of first appearance, without `#`: "#Cats #cats #café" → ["Cats", "café"].
    /// Duplicates are compared case-insensitively and the first spelling is kept. A tag is
    /// letters, digits and underscores (any script); tags of digits only, tags inside URLs and
    /// `#` inside a word (`a#b`) do not count.
    public static func hashtags(in text: String) -> [String] {
        var seen = Set<String>()
        return TextScanner(text).segments().compactMap { segment in
            guard case .hashtag(let tag) = segment, seen.insert(tag.lowercased()).inserted else { return nil }
            return tag
        }
    }

    /// Mentions in order of first appearance: "@bob", "@bob@other.example",
    /// "@bob@127.0.0.1:8081". Email addresses ("x@y.z") and `@` inside URLs do not count;
    /// duplicates (username compared case-insensitively) are dropped.
    public static func mentions(in text: String) -> [Mention] {
        var seen = Set<Mention>()
        return TextScanner(text).segments().compactMap { segment in
            guard case .mention(let mention, _) = segment else { return nil }
            let key = Mention(username: mention.username.lowercased(), domain: mention.domain)
            return seen.insert(key).inserted ? mention : nil
        }
    }
}

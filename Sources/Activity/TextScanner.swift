/// One piece of a plain-text post.
enum TextSegment: Equatable {
    /// Ordinary text.
    case text(String)
    /// An http(s) URL.
    case url(String)
    /// A hashtag, without the `#`.
    case hashtag(String)
    /// A mention and the text it was written as (`@bob@example.com`).
    case mention(Mention, raw: String)
}

/// Splits plain text into text, URLs, hashtags and mentions, in one pass over its characters.
///
/// The rules follow Mastodon's: a `#` or `@` counts only at the start of a word (so `a#b`,
/// `x@y.z` and `https://host/@user` are not tags or mentions), URLs are taken whole first so
/// nothing inside them is a tag, and a tag of digits only is not a tag.
struct TextScanner {
    private let characters: [Character]

    /// A scanner over `text`.
    init(_ text: String) {
        characters = Array(text)
    }

    /// The segments in order; adjacent plain characters are merged into one `.text`.
    func segments() -> [TextSegment] {
        var segments: [TextSegment] = []
        var buffer = ""
        var index = 0
        while index < characters.count {
            if let (segment, end) = url(at: index) ?? hashtag(at: index) ?? mention(at: index) {
                if !buffer.isEmpty { segments.append(.text(buffer)) }
                buffer = ""
                segments.append(segment)
                index = end
            } else {
                buffer.append(characters[index])
                index += 1
            }
        }
        if !buffer.isEmpty { segments.append(.text(buffer)) }
        return segments
    }

    /// Letters, digits (any script) and `_`: what tags and usernames are made of.
    static func isWord(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    private func previous(_ index: Int) -> Character? {
        index > 0 ? characters[index - 1] : nil
    }

    private func run(from start: Int, while predicate: (Character) -> Bool) -> Int {
        var end = start
        while end < characters.count, predicate(characters[end]) { end += 1 }
        return end
    }

    private func url(at index: Int) -> (TextSegment, Int)? {
        if let previous = previous(index), Self.isWord(previous) || previous == "/" { return nil }
        let head = String(characters[index..<min(index + 8, characters.count)]).lowercased()
        guard head.hasPrefix("http://") || head.hasPrefix("https://") else { return nil }
        var end = run(from: index) { !$0.isWhitespace && !"<>\"".contains($0) }
        end = trimmedURLEnd(from: index, to: end)
        let schemeLength = head.hasPrefix("https") ? 8 : 7
        guard end > index + schemeLength else { return nil }
        return (.url(String(characters[index..<end])), end)
    }

    /// Drops trailing sentence punctuation, and a `)` that closes nothing inside the URL.
    /// The parentheses are counted once and updated as the end moves back, so a URL followed
    /// by a long run of `)` or `.` costs linear time.
    private func trimmedURLEnd(from start: Int, to end: Int) -> Int {
        var end = end
        let opens = characters[start..<end].filter { $0 == "(" }.count
        var closes = characters[start..<end].filter { $0 == ")" }.count
        while end > start {
            let last = characters[end - 1]
            guard ".,;:!?'\"".contains(last) || (last == ")" && closes > opens) else { break }
            if last == ")" { closes -= 1 }
            end -= 1
        }
        return end
    }

    private func hashtag(at index: Int) -> (TextSegment, Int)? {
        guard characters[index] == "#" else { return nil }
        if let previous = previous(index), Self.isWord(previous) || "/)#&".contains(previous) { return nil }
        let end = run(from: index + 1, while: Self.isWord)
        let name = characters[(index + 1)..<end]
        guard !name.isEmpty, !name.allSatisfy(\.isNumber) else { return nil }
        return (.hashtag(String(name)), end)
    }

    private func mention(at index: Int) -> (TextSegment, Int)? {
        guard characters[index] == "@" else { return nil }
        if let previous = previous(index), Self.isWord(previous) || "/@=.-+".contains(previous) { return nil }
        let userEnd = trimmed(run(from: index + 1) { Self.isWord($0) || $0 == "." || $0 == "-" }, from: index + 1)
        guard userEnd > index + 1 else { return nil }
        let username = String(characters[(index + 1)..<userEnd])
        if let (domain, end) = domain(at: userEnd) {
            let raw = String(characters[index..<end])
            return (.mention(Mention(username: username, domain: domain), raw: raw), end)
        }
        return (.mention(Mention(username: username), raw: "@" + username), userEnd)
    }

    /// `@host[:port]` right after a username; nil when absent or not a valid host.
    private func domain(at index: Int) -> (String, Int)? {
        guard index < characters.count, characters[index] == "@" else { return nil }
        var end = trimmed(run(from: index + 1) { Self.isWord($0) || $0 == "." || $0 == "-" }, from: index + 1)
        if end < characters.count, characters[end] == ":" {
            let portEnd = run(from: end + 1) { $0.isASCII && $0.isNumber }
            if portEnd > end + 1 { end = portEnd }
        }
        // Checked as kept, lowercased (see `WebFingerResource(parsing:)`).
        let authority = String(characters[(index + 1)..<end]).lowercased()
        guard !authority.isEmpty, WebFingerResource.isAuthority(Substring(authority)) else { return nil }
        return (authority, end)
    }

    /// Moves `end` back over trailing dots and hyphens ("@bob@example.com." ends a sentence).
    private func trimmed(_ end: Int, from start: Int) -> Int {
        var end = end
        while end > start, characters[end - 1] == "." || characters[end - 1] == "-" { end -= 1 }
        return end
    }
}

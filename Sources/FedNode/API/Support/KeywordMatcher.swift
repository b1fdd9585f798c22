import Core
import Foundation

/// Mastodon's keyword rule for filters: a keyword matches ignoring case; a whole-word keyword
/// must not touch a word character on a side where it begins or ends with one (so `cat`
/// does not match `concatenate`, while `#cat` still matches after a space).
enum KeywordMatcher {
    /// Whether `keyword` occurs in `text` by the rule above.
    static func matches(_ keyword: String, wholeWord: Bool, in text: String) -> Bool {
        guard !keyword.isEmpty else { return false }
        var searchStart = text.startIndex
        while let range = text.range(of: keyword, options: [.caseInsensitive, .diacriticInsensitive], range: searchStart..<text.endIndex) {
            if !wholeWord || isBounded(range, of: keyword, in: text) { return true }
            searchStart = text.index(after: range.lowerBound)
        }
        return false
    }

    private static func isBounded(_ range: Range<String.Index>, of keyword: String, in text: String) -> Bool {
        if let first = keyword.first, isWord(first), range.lowerBound > text.startIndex,
            isWord(text[text.index(before: range.lowerBound)]) {
            return false
        }
        if let last = keyword.last, isWord(last), range.upperBound < text.endIndex, isWord(text[range.upperBound]) {
            return false
        }
        return true
    }

    private static func isWord(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" }
}

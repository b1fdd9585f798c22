/// A lexical token of SQL text: enough of SQLite's grammar to rewrite statements for
/// PostgreSQL without touching string literals, quoted names or comments.
struct SQLToken: Equatable {
    enum Kind: Equatable {
        case space
        case comment
        case word
        case quotedName
        case string
        case number
        /// `?`, `?NNN`, `:name`, `@name` or `$name`.
        case parameter
        case symbol
    }

    var kind: Kind
    var text: String

    /// The word in upper case (keywords compare case-insensitively).
    var keyword: String { kind == .word ? text.uppercased() : "" }

    /// Whether this is the keyword `word` (case-insensitive).
    func isKeyword(_ word: String) -> Bool { kind == .word && text.caseInsensitiveCompare(word) == .orderedSame }

    /// Whether this is the punctuation `symbol`.
    func isSymbol(_ symbol: String) -> Bool { kind == .symbol && text == symbol }

    /// Splits `sql` into tokens; concatenating their texts gives `sql` back.
    static func tokenize(_ sql: String) -> [SQLToken] {
        let chars = Array(sql.unicodeScalars)
        var tokens: [SQLToken] = []
        var i = 0
        func text(_ from: Int, _ to: Int) -> String {
            var s = String.UnicodeScalarView()
            s.append(contentsOf: chars[from..<to])
            return String(s)
        }
        func isWordStart(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic }
        func isWordPart(_ c: Unicode.Scalar) -> Bool { isWordStart(c) || ("0"..."9").contains(c) || c == "$" }
        while i < chars.count {
            let c = chars[i]
            let start = i
            if c == " " || c == "\n" || c == "\t" || c == "\r" {
                while i < chars.count, [" ", "\n", "\t", "\r"].contains(chars[i]) { i += 1 }
                tokens.append(SQLToken(kind: .space, text: text(start, i)))
            } else if c == "-", i + 1 < chars.count, chars[i + 1] == "-" {
                while i < chars.count, chars[i] != "\n" { i += 1 }
                tokens.append(SQLToken(kind: .comment, text: text(start, i)))
            } else if c == "/", i + 1 < chars.count, chars[i + 1] == "*" {
                i += 2
                while i + 1 < chars.count, !(chars[i] == "*" && chars[i + 1] == "/") { i += 1 }
                i = min(i + 2, chars.count)
                tokens.append(SQLToken(kind: .comment, text: text(start, i)))
            } else if c == "'" || c == "\"" || c == "`" {
                i += 1
                while i < chars.count {
                    if chars[i] == c {
                        if i + 1 < chars.count, chars[i + 1] == c { i += 2; continue }
                        i += 1
                        break
                    }
                    i += 1
                }
                tokens.append(SQLToken(kind: c == "'" ? .string : .quotedName, text: text(start, i)))
            } else if c == "?" {
                i += 1
                while i < chars.count, ("0"..."9").contains(chars[i]) { i += 1 }
                tokens.append(SQLToken(kind: .parameter, text: text(start, i)))
            } else if (c == ":" || c == "@" || c == "$"), i + 1 < chars.count, isWordStart(chars[i + 1]) {
                i += 1
                while i < chars.count, isWordPart(chars[i]) { i += 1 }
                tokens.append(SQLToken(kind: .parameter, text: text(start, i)))
            } else if ("0"..."9").contains(c) || (c == "." && i + 1 < chars.count && ("0"..."9").contains(chars[i + 1])) {
                while i < chars.count, ("0"..."9").contains(chars[i]) || chars[i] == "." || chars[i] == "e" || chars[i] == "E" { i += 1 }
                tokens.append(SQLToken(kind: .number, text: text(start, i)))
            } else if isWordStart(c) {
                while i < chars.count, isWordPart(chars[i]) { i += 1 }
                tokens.append(SQLToken(kind: .word, text: text(start, i)))
            } else {
                i += 1
                if i < chars.count {
                    let pair = text(start, i + 1)
                    if ["||", "<=", ">=", "<>", "!=", "==", "<<", ">>", "::"].contains(pair) { i += 1 }
                }
                tokens.append(SQLToken(kind: .symbol, text: text(start, i)))
            }
        }
        return tokens
    }
}

extension Array where Element == SQLToken {
    /// The tokens without leading and trailing space.
    var trimmed: [SQLToken] {
        guard let first = firstIndex(where: { $0.kind != .space }), let last = lastIndex(where: { $0.kind != .space }) else { return [] }
        return Array(self[first...last])
    }

    /// The SQL text of the tokens.
    var sql: String { map(\.text).joined() }

    /// The index of the next token from `index` on that is not space or a comment.
    func significant(from index: Int) -> Int? {
        var i = index
        while i < count {
            if self[i].kind != .space && self[i].kind != .comment { return i }
            i += 1
        }
        return nil
    }

    /// The index of the previous significant token before `index`.
    func significant(before index: Int) -> Int? {
        var i = index - 1
        while i >= 0 {
            if self[i].kind != .space && self[i].kind != .comment { return i }
            i -= 1
        }
        return nil
    }

    /// Given the index of an opening parenthesis, the index of its closing one.
    func closing(_ open: Int) -> Int? {
        var depth = 0
        for i in open..<count {
            if self[i].isSymbol("(") { depth += 1 }
            if self[i].isSymbol(")") {
                depth -= 1
                if depth == 0 { return i }
            }
        }
        return nil
    }

    /// The arguments between the parentheses at `open` and `close`, split at top-level commas.
    func arguments(_ open: Int, _ close: Int) -> [[SQLToken]] {
        var result: [[SQLToken]] = [[]]
        var depth = 0
        for i in (open + 1)..<close {
            let token = self[i]
            if token.isSymbol("(") { depth += 1 }
            if token.isSymbol(")") { depth -= 1 }
            if depth == 0, token.isSymbol(",") { result.append([]); continue }
            result[result.count - 1].append(token)
        }
        return result
    }
}

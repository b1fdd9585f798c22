/// Rewrites the SQLite SQL that Storage and GRDB write into PostgreSQL's dialect: the one place
/// where the two engines' differences in statements are handled.
///
/// The schema on PostgreSQL keeps SQLite's representation of values (integers for booleans,
/// GRDB's sortable text for dates, `citext` for the `COLLATE NOCASE` columns), so most SQL is
/// the same on both and only what differs is rewritten:
///
/// | SQLite | PostgreSQL |
/// | --- | --- |
/// | `?`, `?NNN` parameters | `$N` (numbered as SQLite numbers them) |
/// | `INSERT OR IGNORE` | `INSERT … ON CONFLICT DO NOTHING` |
/// | `INSERT OR REPLACE` | `INSERT … ON CONFLICT (primary key) DO UPDATE SET …` |
/// | `a IS b`, `a IS NOT b` (b not NULL) | `IS NOT DISTINCT FROM`, `IS DISTINCT FROM` |
/// | `x COLLATE NOCASE` | `x::citext` |
/// | `LIKE` (ASCII case-insensitive) | `ILIKE` |
/// | `TRUE`, `FALSE` as values; `WHERE 1` | `1`, `0`; `WHERE TRUE` |
/// | a `BOOLEAN` column as a condition (`WHERE local`) | `(local <> 0)` |
/// | `IFNULL`, scalar `MAX(a, b)`, `MIN(a, b)`, `instr` | `COALESCE`, `GREATEST`, `LEAST`, `strpos` |
/// | `substr` (negative starts count from the end) | `fednode_substr` (see `PostgresMigrations`) |
/// | `strftime('%Y-%m-%d %H:%M:%f', 'now')` | `to_char(now() AT TIME ZONE 'UTC', …)` |
/// | `json_each(?)` (a bound JSON array) | `unnest(CAST($N AS TEXT[])) AS json_each(value)`, bound as a `text[]` |
/// | `x IN (SELECT CAST(value AS INTEGER) FROM json_each(?))` | `x = ANY(CAST($N AS BIGINT[]))` (`NOT IN`: `<> ALL`) |
/// | `x IN (SELECT value FROM json_each(?))` | `x = ANY(CAST($N AS TEXT[]))` |
/// | `json_each(x)` (any other argument) | `json_array_elements_text(CAST(x AS JSON)) AS json_each(value)` |
/// | `printf('%0Nd', x)` | `lpad(CAST(x AS TEXT), N, '0')` |
/// | `julianday(x)` | days since the Julian epoch from `CAST(x AS TIMESTAMP)` |
/// | `CAST(x AS INTEGER)`, `AS REAL` | `AS BIGINT`, `AS DOUBLE PRECISION` |
enum PostgresDialect {
    /// A statement rewritten for PostgreSQL.
    struct Statement: Sendable {
        /// The PostgreSQL text, with `$1`… parameters.
        let sql: String
        /// The parameter tokens of the SQLite text, by SQLite index (index 1 first): a
        /// `SELECT` of them in SQLite binds GRDB arguments exactly as the original would.
        let parameters: [String]
        /// The parameters (by index, 1 first) SQLite reads as a JSON array with `json_each`,
        /// which PostgreSQL takes as a `text[]`: the engine binds each as an array of the JSON
        /// array's elements, so the planner sees the elements (an index scan for a handful of
        /// ids, where a JSON text's elements are a guess of a hundred rows).
        var arrays: Set<Int> = []
        /// What the statement returns, which decides how the engine runs it.
        var kind: Kind = .other

        enum Kind: Sendable {
            /// A `SELECT`: rows.
            case query
            /// An `INSERT`, `UPDATE` or `DELETE` without `RETURNING`: a count of changed rows.
            case command
            /// An `INSERT`, `UPDATE` or `DELETE … RETURNING`: rows, one per changed row.
            case returning
            /// Anything else (schema changes, `WITH`, transaction control).
            case other
        }
    }

    /// Rewrites one SQLite statement.
    /// - Parameters:
    ///   - sql: SQLite SQL (one statement).
    ///   - primaryKey: The primary-key columns of a table (for `INSERT OR REPLACE`).
    ///   - booleans: Names of the columns SQLite declares `BOOLEAN` (integers on both engines),
    ///     which SQLite lets a condition test bare (`WHERE local AND …`).
    static func translate(_ sql: String, booleans: Set<String> = [], primaryKey: (String) throws -> [String]) throws -> Statement {
        var tokens = SQLToken.tokenize(sql)
        let parameters = numberParameters(&tokens)
        var arrays: Set<Int> = []
        let functions = rewriteFunctions(tokens, arrays: true)
        if let found = arrayParameters(functions) {
            tokens = rewriteArrayMembership(functions)
            arrays = found
        } else {
            // A parameter read by `json_each` and used as a value elsewhere stays JSON text.
            tokens = rewriteFunctions(tokens, arrays: false)
        }
        tokens = rewriteBareBooleans(tokens, booleans: booleans)
        tokens = rewriteOperators(tokens)
        tokens = aliasSubqueries(tokens)
        tokens = qualifyConflictUpdates(tokens)
        tokens = completeJoins(tokens)
        tokens = try rewriteInsertConflicts(tokens, primaryKey: primaryKey)
        return Statement(sql: tokens.sql, parameters: parameters, arrays: arrays, kind: kind(of: tokens))
    }

    /// What a statement returns, from its first word (and `RETURNING`).
    static func kind(of tokens: [SQLToken]) -> Statement.Kind {
        guard let first = tokens.significant(from: 0) else { return .other }
        switch tokens[first].keyword {
        case "SELECT": return .query
        case "INSERT", "UPDATE", "DELETE":
            // A `RETURNING` of the statement itself, not of a subquery.
            var depth = 0
            for token in tokens[first...] {
                if token.isSymbol("(") { depth += 1 } else if token.isSymbol(")") { depth -= 1 }
                if depth == 0, token.isKeyword("RETURNING") { return .returning }
            }
            return .command
        default: return .other
        }
    }

    /// The parameters that stand in `CAST($N AS TEXT[])` (the rewritten `json_each`), or
    /// `nil` when one of them is also used elsewhere.
    private static func arrayParameters(_ tokens: [SQLToken]) -> Set<Int>? {
        var arrays: Set<Int> = []
        var others: Set<Int> = []
        for i in tokens.indices where tokens[i].kind == .parameter {
            guard let index = Int(tokens[i].text.dropFirst()) else { continue }
            if let open = tokens.significant(before: i), tokens[open].isSymbol("("),
               let cast = tokens.significant(before: open), tokens[cast].isKeyword("CAST"),
               let asWord = tokens.significant(from: i + 1), tokens[asWord].isKeyword("AS"),
               let type = tokens.significant(from: asWord + 1), tokens[type].isKeyword("TEXT"),
               let bracket = tokens.significant(from: type + 1), tokens[bracket].isSymbol("[") {
                arrays.insert(index)
            } else {
                others.insert(index)
            }
        }
        return arrays.isDisjoint(with: others) ? arrays : nil
    }

    /// `x [NOT] IN (SELECT [CAST(]value[ AS BIGINT)] FROM unnest(CAST($N AS TEXT[])) AS
    /// json_each(value))`, the batch idiom, as `x = ANY(…)` (`x <> ALL(…)`), which the planner
    /// reads as one indexable condition on `x`.
    private static func rewriteArrayMembership(_ tokens: [SQLToken]) -> [SQLToken] {
        let integers = ["(", "SELECT", "CAST", "(", "VALUE", "AS", "BIGINT", ")", "FROM", "UNNEST", "(", "CAST", "(", "$", "AS", "TEXT",
                        "[", "]", ")", ")", "AS", "JSON_EACH", "(", "VALUE", ")", ")"]
        let strings = ["(", "SELECT", "VALUE", "FROM", "UNNEST", "(", "CAST", "(", "$", "AS", "TEXT", "[", "]", ")", ")", "AS",
                       "JSON_EACH", "(", "VALUE", ")", ")"]
        var out: [SQLToken] = []
        var i = 0
        while i < tokens.count {
            guard tokens[i].isKeyword("IN"), let open = tokens.significant(from: i + 1), tokens[open].isSymbol("("),
                  let close = tokens.closing(open) else {
                out.append(tokens[i])
                i += 1
                continue
            }
            let inside = tokens[open...close].filter { $0.kind != .space && $0.kind != .comment }
            let shape = inside.map { $0.kind == .parameter ? "$" : ($0.kind == .word ? $0.keyword : $0.text) }
            guard shape == integers || shape == strings, let parameter = inside.first(where: { $0.kind == .parameter }) else {
                out.append(tokens[i])
                i += 1
                continue
            }
            var negated = false
            if let previous = out.lastIndex(where: { $0.kind != .space && $0.kind != .comment }), out[previous].isKeyword("NOT") {
                out.removeSubrange(previous...)
                negated = true
            }
            let type = shape == integers ? "BIGINT" : "TEXT"
            out += SQLToken.tokenize("\(negated ? "<> ALL" : "= ANY") (CAST(\(parameter.text) AS \(type)[]))")
            i = close + 1
        }
        return out
    }

    /// Replaces SQLite parameters by `$N`, numbered by SQLite's rules: `?` takes the largest
    /// index so far plus one, `?N` is N, a name keeps the index of its first use.
    /// - Returns: The token of each index, `?N` for indices no token names.
    private static func numberParameters(_ tokens: inout [SQLToken]) -> [String] {
        var largest = 0
        var named: [String: Int] = [:]
        var byIndex: [Int: String] = [:]
        for i in tokens.indices where tokens[i].kind == .parameter {
            let text = tokens[i].text
            let index: Int
            if text == "?" {
                index = largest + 1
            } else if text.hasPrefix("?"), let number = Int(text.dropFirst()) {
                index = number
            } else if let known = named[text] {
                index = known
            } else {
                index = largest + 1
                named[text] = index
            }
            largest = max(largest, index)
            if byIndex[index] == nil { byIndex[index] = text == "?" ? "?\(index)" : text }
            tokens[i] = SQLToken(kind: .parameter, text: "$\(index)")
        }
        guard largest > 0 else { return [] }
        return (1...largest).map { byIndex[$0] ?? "?\($0)" }
    }

    /// Function calls SQLite has and PostgreSQL lacks or spells differently; with `arrays`,
    /// `json_each` of a parameter reads a `text[]` (`Statement.arrays`).
    static func rewriteFunctions(_ tokens: [SQLToken], arrays: Bool = false) -> [SQLToken] {
        var out: [SQLToken] = []
        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            guard token.kind == .word, let open = tokens.significant(from: i + 1), tokens[open].isSymbol("("),
                  let close = tokens.closing(open) else {
                out.append(token)
                i += 1
                continue
            }
            let arguments = tokens.arguments(open, close).map { rewriteFunctions($0, arrays: arrays) }
            func call(_ name: String, _ args: [[SQLToken]]) -> [SQLToken] {
                var call = [SQLToken(kind: .word, text: name), SQLToken(kind: .symbol, text: "(")]
                for (n, argument) in args.enumerated() {
                    if n > 0 { call.append(SQLToken(kind: .symbol, text: ",")) }
                    call += argument
                }
                return call + [SQLToken(kind: .symbol, text: ")")]
            }
            func raw(_ sql: String) -> [SQLToken] { SQLToken.tokenize(sql) }
            let bare = arguments.map(\.trimmed)
            switch token.keyword {
            case "IFNULL":
                out += call("COALESCE", arguments)
            case "MAX" where arguments.count > 1:
                out += call("GREATEST", arguments)
            case "MIN" where arguments.count > 1:
                out += call("LEAST", arguments)
            case "INSTR":
                out += call("strpos", arguments)
            case "SUBSTR", "SUBSTRING":
                out += call("fednode_substr", arguments)
            case "STRFTIME" where arguments.count == 2 && arguments[1].sql.trimmingCharacters(in: .whitespaces) == "'now'":
                out += raw("to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')")
            case "JSON_EACH" where arrays && bare.count == 1 && bare[0].count == 1 && bare[0][0].kind == .parameter:
                out += raw("unnest(CAST(") + bare[0] + raw(" AS TEXT[])) AS json_each(value)")
            case "JSON_EACH":
                out += call("json_array_elements_text", [raw("CAST(") + bare[0] + raw(" AS JSON)")])
                    + raw(" AS json_each(value)")
            case "JULIANDAY":
                out += raw("(EXTRACT(EPOCH FROM CAST(") + bare[0] + raw(" AS TIMESTAMP)) / 86400.0 + 2440587.5)")
            case "PRINTF" where arguments.count == 2:
                let format = arguments[0].sql.trimmingCharacters(in: .whitespaces)
                if format.hasPrefix("'%0"), format.hasSuffix("d'"), let width = Int(format.dropFirst(3).dropLast(2)) {
                    out += raw("lpad(CAST(") + bare[1] + raw(" AS TEXT), \(width), '0')")
                } else {
                    out += call("format", arguments)
                }
            case "CAST" where arguments.count == 1:
                var inner = arguments[0]
                if let last = inner.lastIndex(where: { $0.kind == .word }),
                   let before = inner.significant(before: last), inner[before].isKeyword("AS") {
                    switch inner[last].keyword {
                    case "INTEGER", "INT": inner[last] = SQLToken(kind: .word, text: "BIGINT")
                    case "REAL": inner[last] = SQLToken(kind: .word, text: "DOUBLE PRECISION")
                    default: break
                    }
                }
                out += call("CAST", [inner])
            default:
                out += [token] + Array(tokens[(i + 1)..<open]) + call("", arguments).dropFirst()
            }
            i = close + 1
        }
        return out
    }

    /// A boolean column standing alone as a condition (`WHERE local`, `AND NOT p.sensitive`)
    /// becomes `(local <> 0)`: SQLite tests integers for truth, PostgreSQL wants a boolean.
    static func rewriteBareBooleans(_ tokens: [SQLToken], booleans: Set<String>) -> [SQLToken] {
        let before: Set<String> = ["WHERE", "AND", "OR", "NOT", "ON", "WHEN", "HAVING"]
        let after: Set<String> = ["AND", "OR", "THEN", "ORDER", "GROUP", "LIMIT", "HAVING", "WINDOW", "UNION", "EXCEPT", "INTERSECT",
                                  "RETURNING", "END", "ELSE", "JOIN", "LEFT", "INNER", "CROSS", "WHERE", "OFFSET"]
        func name(_ token: SQLToken) -> String? {
            switch token.kind {
            case .word: token.text.lowercased()
            case .quotedName: String(token.text.dropFirst().dropLast()).lowercased()
            default: nil
            }
        }
        var out = tokens
        var i = tokens.count - 1
        while i >= 0 {
            defer { i -= 1 }
            // A boolean column, or a parameter standing for a condition (GRDB binds constant
            // conditions such as an empty `IN` list as a parameter: `WHERE ? AND …`).
            let isParameter = tokens[i].kind == .parameter
            guard isParameter || name(tokens[i]).map(booleans.contains) == true else { continue }
            // The reference may be qualified: t.column.
            var start = i
            if let dot = tokens.significant(before: i), tokens[dot].isSymbol("."), let qualifier = tokens.significant(before: dot),
               name(tokens[qualifier]) != nil {
                start = qualifier
            }
            guard let previous = tokens.significant(before: start) else { continue }
            let next = tokens.significant(from: i + 1).map { tokens[$0] }
            if tokens[previous].isSymbol("(") {
                // `(local OR …`: a condition; `SUM(local)`, `(local)`: not known to be one.
                guard let next, next.isKeyword("AND") || next.isKeyword("OR") else { continue }
            } else {
                guard before.contains(tokens[previous].keyword) else { continue }
                if let next { guard after.contains(next.keyword) || next.isSymbol(")") || next.isSymbol(";") else { continue } }
            }
            out.insert(contentsOf: SQLToken.tokenize(" <> 0)"), at: i + 1)
            out.insert(SQLToken(kind: .symbol, text: "("), at: start)
        }
        return out
    }

    /// Operators and literals: `IS [NOT]` between values, `COLLATE NOCASE`, `LIKE`, booleans.
    static func rewriteOperators(_ tokens: [SQLToken]) -> [SQLToken] {
        var out: [SQLToken] = []
        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            switch token.keyword {
            case "IS":
                var next = tokens.significant(from: i + 1)
                var negated = false
                if let n = next, tokens[n].isKeyword("NOT") {
                    negated = true
                    next = tokens.significant(from: n + 1)
                }
                if let n = next, !["NULL", "TRUE", "FALSE", "DISTINCT"].contains(tokens[n].keyword) {
                    out.append(SQLToken(kind: .word, text: negated ? "IS DISTINCT FROM" : "IS NOT DISTINCT FROM"))
                    out.append(SQLToken(kind: .space, text: " "))
                    i = n
                    continue
                }
                out.append(token)
            case "COLLATE":
                if let n = tokens.significant(from: i + 1), tokens[n].isKeyword("NOCASE") {
                    while let last = out.last, last.kind == .space { out.removeLast() }
                    out.append(SQLToken(kind: .symbol, text: "::"))
                    out.append(SQLToken(kind: .word, text: "citext"))
                    i = n + 1
                    continue
                }
                out.append(token)
            case "LIKE":
                out.append(SQLToken(kind: .word, text: "ILIKE"))
            case "TRUE", "FALSE":
                // A value (compared with or stored in an integer column) is 1 or 0; a condition
                // on its own stays boolean.
                let previous = tokens.significant(before: i).map { tokens[$0] }
                let isCondition = previous.map { ["WHERE", "AND", "OR", "ON", "WHEN", "NOT", "IF"].contains($0.keyword) } ?? false
                out.append(isCondition ? token : SQLToken(kind: .number, text: token.keyword == "TRUE" ? "1" : "0"))
            default:
                // SQLite's `WHERE 1`: a number standing alone as a condition.
                if token.kind == .number, token.text == "1" || token.text == "0",
                   let previous = tokens.significant(before: i), ["WHERE", "AND", "OR", "WHEN"].contains(tokens[previous].keyword) {
                    let next = tokens.significant(from: i + 1).map { tokens[$0] }
                    if next == nil || next!.kind == .word || next!.isSymbol(")") || next!.isSymbol(";") {
                        out.append(SQLToken(kind: .word, text: token.text == "1" ? "TRUE" : "FALSE"))
                        break
                    }
                }
                out.append(token)
            }
            i += 1
        }
        return out
    }

    /// In `ON CONFLICT … DO UPDATE SET a = a + 1`, SQLite reads a bare column as the existing
    /// row's; PostgreSQL calls it ambiguous (it could be `EXCLUDED`'s): qualify it with the table.
    static func qualifyConflictUpdates(_ tokens: [SQLToken]) -> [SQLToken] {
        guard let insert = tokens.significant(from: 0), tokens[insert].isKeyword("INSERT"),
              let into = tokens.firstIndex(where: { $0.isKeyword("INTO") }), let tableIndex = tokens.significant(from: into + 1),
              let doIndex = tokens.indices.first(where: { i in
                  tokens[i].isKeyword("DO") && tokens.significant(from: i + 1).map { tokens[$0].isKeyword("UPDATE") } == true }),
              let update = tokens.significant(from: doIndex + 1), let set = tokens.significant(from: update + 1),
              tokens[set].isKeyword("SET") else { return tokens }
        let table = tokens[tableIndex].text
        let notColumns: Set<String> = ["CASE", "WHEN", "THEN", "ELSE", "END", "NULL", "AND", "OR", "NOT", "IS", "DISTINCT", "FROM",
                                       "EXCLUDED", "WHERE", "IN", "TRUE", "FALSE", "NEW", "OLD", "RETURNING", "AS", "LIKE", "ILIKE"]
        var out = tokens
        var inValue = false
        var depth = 0
        var i = set + 1
        while i < out.count {
            let token = out[i]
            if token.isKeyword("RETURNING") { break }
            if token.isSymbol("(") { depth += 1 }
            if token.isSymbol(")") { depth -= 1 }
            if token.isSymbol("=") && depth == 0 && !inValue { inValue = true }
            else if token.isSymbol(",") && depth == 0 { inValue = false }
            else if token.isKeyword("WHERE") && depth == 0 { inValue = true }
            else if inValue, token.kind == .word, !notColumns.contains(token.keyword) {
                let previous = out.significant(before: i).map { out[$0] }
                let next = out.significant(from: i + 1).map { out[$0] }
                let qualified = previous?.isSymbol(".") == true || next?.isSymbol(".") == true || next?.isSymbol("(") == true
                if !qualified { out[i] = SQLToken(kind: .word, text: "\(table).\(token.text)") }
            }
            i += 1
        }
        return out
    }

    /// `JOIN t WHERE …` without `ON`: SQLite reads it as a cross join (leaving the order to its
    /// planner); PostgreSQL needs a condition, so it gets `ON TRUE`.
    static func completeJoins(_ tokens: [SQLToken]) -> [SQLToken] {
        let ends: Set<String> = ["WHERE", "JOIN", "LEFT", "INNER", "CROSS", "ORDER", "GROUP", "LIMIT", "UNION", "EXCEPT", "INTERSECT",
                                 "HAVING", "WINDOW", "RETURNING"]
        var insertions: [Int] = []
        for i in tokens.indices where tokens[i].isKeyword("JOIN") {
            if let previous = tokens.significant(before: i), tokens[previous].isKeyword("CROSS") || tokens[previous].isKeyword("NATURAL") { continue }
            guard var j = tokens.significant(from: i + 1) else { continue }
            if tokens[j].isSymbol("("), let close = tokens.closing(j) { j = close }
            // The table (or subquery), then an optional alias.
            var last = j
            if let next = tokens.significant(from: j + 1), tokens[next].isSymbol(".") , let name = tokens.significant(from: next + 1) { last = name }
            if let alias = tokens.significant(from: last + 1), tokens[alias].isKeyword("AS") { last = tokens.significant(from: alias + 1) ?? alias }
            else if let alias = tokens.significant(from: last + 1), tokens[alias].kind == .word || tokens[alias].kind == .quotedName,
                    !ends.contains(tokens[alias].keyword), !tokens[alias].isKeyword("ON"), !tokens[alias].isKeyword("USING") { last = alias }
            let next = tokens.significant(from: last + 1)
            if let next, tokens[next].isKeyword("ON") || tokens[next].isKeyword("USING") { continue }
            if let next, !(ends.contains(tokens[next].keyword) || tokens[next].isSymbol(")") || tokens[next].isSymbol(";") || tokens[next].isSymbol(",")) { continue }
            insertions.append(last + 1)
        }
        var out = tokens
        for index in insertions.reversed() { out.insert(contentsOf: SQLToken.tokenize(" ON TRUE"), at: index) }
        return out
    }

    /// Names every subquery in a FROM clause that has no alias (PostgreSQL before 16 requires one).
    static func aliasSubqueries(_ tokens: [SQLToken]) -> [SQLToken] {
        let clauseWords: Set<String> = ["WHERE", "GROUP", "ORDER", "LIMIT", "JOIN", "ON", "UNION", "LEFT", "RIGHT", "INNER", "CROSS",
                                        "FULL", "WINDOW", "HAVING", "EXCEPT", "INTERSECT", "OFFSET", "RETURNING", "USING", "NATURAL"]
        var insertions: [Int] = []
        for i in tokens.indices where tokens[i].isSymbol("(") {
            guard let before = tokens.significant(before: i), tokens[before].isKeyword("FROM") || tokens[before].isKeyword("JOIN"),
                  let first = tokens.significant(from: i + 1), tokens[first].isKeyword("SELECT") || tokens[first].isKeyword("WITH"),
                  let close = tokens.closing(i) else { continue }
            if let next = tokens.significant(from: close + 1) {
                let token = tokens[next]
                let named = token.isKeyword("AS") || token.kind == .quotedName || (token.kind == .word && !clauseWords.contains(token.keyword))
                if named { continue }
            }
            insertions.append(close + 1)
        }
        var out = tokens
        for (n, index) in insertions.enumerated().reversed() {
            out.insert(contentsOf: SQLToken.tokenize(" AS fednode_subquery_\(n)"), at: index)
        }
        return out
    }

    /// `INSERT OR IGNORE` and `INSERT OR REPLACE` as `ON CONFLICT` clauses.
    private static func rewriteInsertConflicts(_ tokens: [SQLToken], primaryKey: (String) throws -> [String]) throws -> [SQLToken] {
        guard let insert = tokens.significant(from: 0), tokens[insert].isKeyword("INSERT") || tokens[insert].isKeyword("REPLACE"),
              let or = tokens.significant(from: insert + 1) else { return tokens }
        var mode: String
        var afterConflictWord: Int
        if tokens[insert].isKeyword("REPLACE") {
            mode = "REPLACE"
            afterConflictWord = insert + 1
        } else if tokens[or].isKeyword("OR"), let m = tokens.significant(from: or + 1) {
            mode = tokens[m].keyword
            afterConflictWord = m + 1
        } else {
            return tokens
        }
        // INSERT INTO table (columns) …
        guard let into = tokens.significant(from: afterConflictWord), tokens[into].isKeyword("INTO"),
              let tableIndex = tokens.significant(from: into + 1) else { return tokens }
        let table = tokens[tableIndex].text.trimmingCharacters(in: CharacterSet(charactersIn: "\"`"))
        var columns: [String] = []
        if let open = tokens.significant(from: tableIndex + 1), tokens[open].isSymbol("("), let close = tokens.closing(open) {
            columns = tokens.arguments(open, close).map { $0.sql.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\"`")) }
        }
        var head = [SQLToken(kind: .word, text: "INSERT"), SQLToken(kind: .space, text: " ")] + Array(tokens[into...])
        // The conflict clause goes before RETURNING, if any.
        var tail: [SQLToken] = []
        if let returning = head.lastIndex(where: { $0.isKeyword("RETURNING") }) {
            tail = Array(head[returning...])
            head = Array(head[..<returning])
        }
        while let last = head.last, last.kind == .space || last.isSymbol(";") { head.removeLast() }
        let clause: String
        switch mode {
        case "IGNORE":
            clause = " ON CONFLICT DO NOTHING"
        case "REPLACE":
            let key = try primaryKey(table)
            let updated = columns.filter { !key.contains($0) }
            clause = updated.isEmpty
                ? " ON CONFLICT DO NOTHING"
                : " ON CONFLICT (\(key.map { "\"\($0)\"" }.joined(separator: ", "))) DO UPDATE SET "
                    + updated.map { "\"\($0)\" = EXCLUDED.\"\($0)\"" }.joined(separator: ", ")
        default:
            return tokens
        }
        return Array(tokens[..<insert]) + head + SQLToken.tokenize(clause) + (tail.isEmpty ? [] : [SQLToken(kind: .space, text: " ")] + tail)
    }
}

import Foundation

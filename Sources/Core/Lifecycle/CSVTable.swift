import Foundation

/// The CSV that Mastodon's export and import use (RFC 4180: comma-separated, fields with a
/// comma, quote or line break quoted, quotes doubled; CRLF or LF line ends).
package enum CSVTable {
    /// Why a file is not CSV that can be read.
    package enum Failure: Error, Equatable {
        /// A quoted field (opened on `line`) is not closed before the end of the file.
        case unclosedQuote(line: Int)
        /// More rows than the caller allows.
        case tooManyRows(Int)
    }

    /// One line of CSV for `fields`, ending in a line feed.
    package static func line(_ fields: [String]) -> String {
        fields.map { field in
            guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }.joined(separator: ",") + "\n"
    }

    /// The rows of `text`, each a list of fields; blank lines are skipped.
    /// - Parameter maxRows: Most rows accepted.
    /// - Throws: `Failure` for an unclosed quote or too many rows.
    package static func rows(_ text: String, maxRows: Int) throws(Failure) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var line = 1
        var openedOn = 1
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func endRow() throws(Failure) {
            row.append(field)
            field = ""
            if !(row.count == 1 && row[0].trimmingCharacters(in: .whitespaces).isEmpty) {
                guard rows.count < maxRows else { throw .tooManyRows(maxRows) }
                rows.append(row)
            }
            row = []
        }
        while let scalar = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if scalar == "\"" {
                    let next = iterator.next()
                    if next == "\"" { field.unicodeScalars.append("\"") } else { quoted = false; pending = next }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty: quoted = true; openedOn = line
            case ",": row.append(field); field = ""
            case "\r": continue
            case "\n": line += 1; try endRow()
            default: field.unicodeScalars.append(scalar)
            }
        }
        if quoted { throw .unclosedQuote(line: openedOn) }
        if !field.isEmpty || !row.isEmpty { try endRow() }
        return rows
    }
}

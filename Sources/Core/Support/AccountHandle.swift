import Foundation

/// `name`, `@name`, `name@domain` or `@name@domain`, as typed into lookup and search.
package struct AccountHandle: Sendable, Equatable {
    /// The local part.
    package var username: String
    /// The domain, lowercased; `nil` when none was given.
    package var domain: String?

    /// Parses `text`; `nil` unless it has the shape of a handle.
    package init?(_ text: String) {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if rest.hasPrefix("@") { rest = rest.dropFirst() }
        let parts = rest.split(separator: "@", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty,
            parts[0].unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || "_.-".unicodeScalars.contains($0) })
        else { return nil }
        username = String(parts[0])
        if parts.count == 2 {
            guard !parts[1].isEmpty, !parts[1].contains("/"), !parts[1].contains(" ") else { return nil }
            domain = parts[1].lowercased()
        }
    }
}

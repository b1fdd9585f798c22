import Activity
import Core

/// Chooses between the ActivityPub JSON and the HTML view of a resource from `Accept`.
enum ContentNegotiation {
    /// A representation the node can serve.
    enum Representation: Equatable {
        /// `application/activity+json` (also for `application/ld+json` and `application/json`).
        case activityJSON
        /// The web page.
        case html
    }

    /// The representation `accept` prefers, honouring q-values; a missing header means HTML
    /// (browsers and `curl` without flags); `nil` when nothing acceptable is offered (406).
    static func preferred(accept: String?) -> Representation? {
        guard let accept, !accept.trimmingCharacters(in: .whitespaces).isEmpty else { return .html }
        let ranges = accept.split(separator: ",").compactMap(parseRange).filter { $0.quality > 0 }
        let ranked = ranges.enumerated().sorted {
            $0.element.quality != $1.element.quality ? $0.element.quality > $1.element.quality : $0.offset < $1.offset
        }
        for (_, range) in ranked {
            if let representation = representation(for: range.type) { return representation }
        }
        return nil
    }

    private static func representation(for type: String) -> Representation? {
        switch type {
        case "application/activity+json", "application/ld+json", "application/json": .activityJSON
        case "text/html", "application/xhtml+xml", "text/*", "*/*": .html
        default: nil
        }
    }

    private static func parseRange(_ part: Substring) -> (type: String, quality: Double)? {
        let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let type = pieces.first?.lowercased(), !type.isEmpty else { return nil }
        var quality = 1.0
        for parameter in pieces.dropFirst() where parameter.lowercased().hasPrefix("q=") {
            quality = Double(parameter.dropFirst(2)) ?? 0
        }
        return (type, quality)
    }
}

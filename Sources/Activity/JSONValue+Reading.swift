import Foundation

extension JSONValue {
    /// The id a value stands for: a string, an object's `id` (or a Link's `href`), or the
    /// first such id in an array.
    static func idOf(_ value: JSONValue) -> String? {
        switch value {
        case .string(let id): return id.isEmpty ? nil : id
        case .object(let members): return members["id"]?.stringValue ?? members["href"]?.stringValue
        case .array(let elements): return elements.lazy.compactMap(idOf).first
        default: return nil
        }
    }

    /// The elements of an array, or the value itself as a one-element list (ActivityStreams
    /// lets any non-functional property be a single value); `null` is the empty list.
    var asList: [JSONValue] {
        switch self {
        case .array(let elements): return elements
        case .null: return []
        default: return [self]
        }
    }
}

/// Tolerant readers over the members of a JSON object: a member of the wrong type reads as
/// absent rather than failing the whole document.
extension Dictionary where Key == String, Value == JSONValue {
    /// A string member.
    func string(_ key: String) -> String? {
        self[key]?.stringValue
    }

    /// A boolean member.
    func bool(_ key: String) -> Bool? {
        self[key]?.boolValue
    }

    /// An integral number, or a string holding one (some servers quote dimensions).
    func int(_ key: String) -> Int? {
        guard let value = self[key] else { return nil }
        return value.intValue ?? value.stringValue.flatMap { Int($0) }
    }

    /// An id from a string, an object or an array.
    func id(_ key: String) -> String? {
        self[key].flatMap(JSONValue.idOf)
    }

    /// Ids from a string, an object, or an array of those (addressing, ActivityPub 5.1).
    func ids(_ key: String) -> [String] {
        (self[key]?.asList ?? []).compactMap(JSONValue.idOf)
    }

    /// A member read as an `ASReference`.
    func reference(_ key: String) -> ASReference? {
        self[key].flatMap { ASReference(json: $0) }
    }

    /// Embedded objects from an object or an array; bare strings become Links.
    func objects(_ key: String) -> [ASObject] {
        (self[key]?.asList ?? []).compactMap { element in
            switch element {
            case .object(let members): return ASObject(lenient: members)
            case .string(let href): return ASObject(types: ["Link"], href: href)
            default: return nil
            }
        }
    }

    /// A timestamp member (nil when unparseable).
    func date(_ key: String) -> Date? {
        string(key).flatMap(ASDate.parse)
    }
}

extension ASObject {
    /// A member-less object of the given types with an `href` (for bare-string links).
    init(types: [String], href: String) {
        self.init(types: types)
        self.href = href
    }
}

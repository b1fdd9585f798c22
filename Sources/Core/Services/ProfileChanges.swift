import Foundation
import Storage

/// A profile edit as the owner typed it; `nil` leaves a value as it is.
public struct ProfileChanges: Sendable {
    /// Display name.
    public var displayName: String?
    /// Bio as typed (plain text; stored as typed and as HTML).
    public var note: String?
    /// Given name (FedNode extension).
    public var firstName: String?
    /// Family name (FedNode extension).
    public var lastName: String?
    /// Profile links, replacing the old ones; blank pairs are dropped.
    public var fields: [ProfileField]?
    /// Whether follows need approval.
    public var locked: Bool?
    /// Whether the account may be suggested and found in search.
    public var discoverable: Bool?
    /// Whether the account is automated.
    public var bot: Bool?
    /// New avatar image bytes.
    public var avatar: Data?
    /// New header image bytes.
    public var header: Data?
    /// Whether the avatar goes (the default one shows again).
    public var removesAvatar = false
    /// Whether the header goes (the default one shows again).
    public var removesHeader = false

    /// No changes.
    public init() {}

    /// Longest display name, as Mastodon.
    package static let maxDisplayName = 30
    /// Longest bio, as Mastodon.
    package static let maxNote = 500
    /// Longest first or last name.
    package static let maxName = 100
    /// Most profile links, as Mastodon.
    package static let maxFields = 4
    /// Longest link label or value, as Mastodon.
    package static let maxFieldPart = 255

    /// Checks the lengths Mastodon checks.
    /// - Throws: `NodeError.validation` (422) naming the first rule broken.
    package func validate() throws(NodeError) {
        try Self.check(displayName, "Display name", max: Self.maxDisplayName)
        try Self.check(note, "Note", max: Self.maxNote)
        try Self.check(firstName, "First name", max: Self.maxName)
        try Self.check(lastName, "Last name", max: Self.maxName)
        guard let fields else { return }
        guard fields.count <= Self.maxFields else {
            throw .validation("Validation failed: Fields is too long (maximum is \(Self.maxFields) fields)")
        }
        for field in fields {
            try Self.check(field.name, "Fields name", max: Self.maxFieldPart)
            try Self.check(field.value, "Fields value", max: Self.maxFieldPart)
        }
    }

    /// Links from `fields_attributes` entries (`name`/`value`), dropping blank pairs.
    package static func fields(from attributes: [[String: String]]) -> [ProfileField] {
        attributes.compactMap { item in
            let name = (item["name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            let value = (item["value"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            return name.isEmpty && value.isEmpty ? nil : ProfileField(name: name, value: value)
        }
    }

    private static func check(_ value: String?, _ label: String, max: Int) throws(NodeError) {
        guard let value, value.count > max else { return }
        throw .validation("Validation failed: \(label) is too long (maximum is \(max) characters)")
    }
}

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
    /// Audience of new posts when the app does not say (`source[privacy]`).
    public var defaultVisibility: Visibility?
    /// Whether new posts' media is sensitive when the app does not say (`source[sensitive]`).
    public var defaultSensitive: Bool?
    /// Language of new posts when the app does not say (`source[language]`); empty for none.
    public var defaultLanguage: String?

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

    /// Whether anything other servers see changes (the `Update` of the actor is sent only then).
    package var changesProfile: Bool {
        displayName != nil || note != nil || firstName != nil || lastName != nil || fields != nil || locked != nil
            || discoverable != nil || bot != nil || avatar != nil || header != nil || removesAvatar || removesHeader
    }

    /// Whether a posting default changes.
    package var changesPostingDefaults: Bool { defaultVisibility != nil || defaultSensitive != nil || defaultLanguage != nil }

    /// `current` with the posting defaults these changes set.
    package func postingDefaults(from current: PostingDefaults) -> PostingDefaults {
        var defaults = current
        if let defaultVisibility { defaults.visibility = defaultVisibility }
        if let defaultSensitive { defaults.sensitive = defaultSensitive }
        if let defaultLanguage { defaults.language = defaultLanguage.isEmpty ? nil : defaultLanguage }
        return defaults
    }

    /// Checks the lengths Mastodon checks, and that a default visibility is not direct and a
    /// default language is an ISO 639 code.
    /// - Throws: `NodeError.validation` (422) naming the first rule broken.
    package func validate() throws(NodeError) {
        if defaultVisibility == .direct {
            throw .validation("Validation failed: Default privacy is not included in the list")
        }
        if let defaultLanguage, !defaultLanguage.isEmpty, !Self.isLanguageCode(defaultLanguage) {
            throw .validation("Validation failed: Default language is not included in the list")
        }
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

    /// Whether `code` has the form of an ISO 639-1 or 639-3 code (two or three lowercase letters).
    package static func isLanguageCode(_ code: String) -> Bool {
        (2...3).contains(code.count) && code.allSatisfy { $0.isASCII && $0.isLowercase && $0.isLetter }
    }

    private static func check(_ value: String?, _ label: String, max: Int) throws(NodeError) {
        guard let value, value.count > max else { return }
        throw .validation("Validation failed: \(label) is too long (maximum is \(max) characters)")
    }
}

import Foundation
import GRDB

extension Account {
    /// Decodes an `accounts` row by column name, without `Codable` and its key strategy (a page
    /// of statuses decodes its authors and mentions). As `Codable`
    /// decoding does, an optional column missing from the row reads as `nil` and a missing
    /// required one throws; `fields` is JSON, read with the record's JSON decoder.
    /// - Throws: `RowDecodingError` when a required column is missing or holds a wrong value,
    ///   a `DecodingError` when `fields` is not a JSON list of links.
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        username = try row.decode(forColumn: "username")
        domain = try row.decode(forColumn: "domain")
        uri = try row.decode(forColumn: "uri")
        url = try row.decode(forColumn: "url")
        displayName = try row.decode(forColumn: "display_name")
        firstName = try row.decode(forColumn: "first_name")
        lastName = try row.decode(forColumn: "last_name")
        note = try row.decode(forColumn: "note")
        noteSource = try row.decode(forColumn: "note_source")
        website = try row.decode(forColumn: "website")
        fields = try Self.decodeFields(try row.decode(forColumn: "fields"))
        avatarUrl = try row.decode(forColumn: "avatar_url")
        headerUrl = try row.decode(forColumn: "header_url")
        locked = try row.decode(forColumn: "locked")
        discoverable = try row.decode(forColumn: "discoverable")
        bot = try row.decode(forColumn: "bot")
        actorType = try row.decode(forColumn: "actor_type")
        followersCount = try row.decode(forColumn: "followers_count")
        followingCount = try row.decode(forColumn: "following_count")
        statusesCount = try row.decode(forColumn: "statuses_count")
        createdAt = try row.decode(forColumn: "created_at")
        updatedAt = try row.decode(forColumn: "updated_at")
        fetchedAt = try row.decode(forColumn: "fetched_at")
        try decodeEndpoints(row)
    }

    /// The ActivityPub endpoints and keys.
    private mutating func decodeEndpoints(_ row: Row) throws {
        inboxUrl = try row.decode(forColumn: "inbox_url")
        sharedInboxUrl = try row.decode(forColumn: "shared_inbox_url")
        outboxUrl = try row.decode(forColumn: "outbox_url")
        followersUrl = try row.decode(forColumn: "followers_url")
        followingUrl = try row.decode(forColumn: "following_url")
        publicKeyId = try row.decode(forColumn: "public_key_id")
        publicKeyPem = try row.decode(forColumn: "public_key_pem")
        privateKeyPem = try row.decode(forColumn: "private_key_pem")
    }

    /// The profile links stored as JSON, as the record's `Codable` encoding wrote them; the
    /// common empty list without a decoder.
    private static func decodeFields(_ json: String) throws -> [ProfileField] {
        if json == "[]" { return [] }
        return try databaseJSONDecoder(for: "fields").decode([ProfileField].self, from: Data(json.utf8))
    }
}

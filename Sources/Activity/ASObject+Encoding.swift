import Foundation

extension ASObject {
    /// JSON, sorted keys, no nils, slashes not escaped (`"https://..."`).
    public func encoded() -> Data {
        jsonValue.encoded()
    }

    /// The wire form: `extra` first, then every present known member over it; nils and empty
    /// address/attachment/tag lists are left out; one type is a string; dates are ISO 8601 UTC;
    /// `items` is written as `orderedItems` for Ordered* types.
    public var jsonValue: JSONValue {
        var members = extra
        writeCore(into: &members)
        writeContent(into: &members)
        writeMedia(into: &members)
        writeActor(into: &members)
        writeCollection(into: &members)
        return .object(members)
    }

    private func writeCore(into members: inout [String: JSONValue]) {
        members["@context"] = context
        members["id"] = id.map(JSONValue.string)
        members["type"] = types.count == 1 ? .string(types[0]) : (types.isEmpty ? nil : .array(types.map(JSONValue.string)))
        members["actor"] = actor?.jsonValue
        // Written only when present: a builder may put a list in `extra` (a `Flag` names an
        // account and its posts).
        if let object { members["object"] = object.jsonValue }
        members["target"] = target?.jsonValue
        members["result"] = result?.jsonValue
        members["to"] = Self.list(to)
        members["cc"] = Self.list(cc)
        members["bto"] = Self.list(bto)
        members["bcc"] = Self.list(bcc)
        members["audience"] = Self.list(audience)
    }

    private func writeContent(into members: inout [String: JSONValue]) {
        members["attributedTo"] = attributedTo.map(JSONValue.string)
        members["name"] = name.map(JSONValue.string)
        // Only written when present, so a builder can put an explicit `null` in `extra`
        // (Mastodon always sends `summary`, `null` without a content warning).
        if let summary { members["summary"] = .string(summary) }
        members["content"] = content.map(JSONValue.string)
        members["contentMap"] = contentMap.map { .object($0.mapValues(JSONValue.string)) }
        members["mediaType"] = mediaType.map(JSONValue.string)
        members["url"] = url.map(JSONValue.string)
        members["inReplyTo"] = inReplyTo.map(JSONValue.string)
        members["published"] = published.map { .string(ASDate.format($0)) }
        members["updated"] = updated.map { .string(ASDate.format($0)) }
        members["sensitive"] = sensitive.map(JSONValue.bool)
        members["attachment"] = attachment.isEmpty ? nil : .array(attachment.map(\.jsonValue))
        members["tag"] = tag.isEmpty ? nil : .array(tag.map(\.jsonValue))
    }

    private func writeMedia(into members: inout [String: JSONValue]) {
        members["icon"] = icon?.jsonValue
        members["image"] = image?.jsonValue
        members["width"] = width.map { .number(Double($0)) }
        members["height"] = height.map { .number(Double($0)) }
        members["blurhash"] = blurhash.map(JSONValue.string)
        members["focalPoint"] = focalPoint.map { .array($0.map(JSONValue.number)) }
        members["href"] = href.map(JSONValue.string)
        members["value"] = value.map(JSONValue.string)
    }

    private func writeActor(into members: inout [String: JSONValue]) {
        members["preferredUsername"] = preferredUsername.map(JSONValue.string)
        members["inbox"] = inbox.map(JSONValue.string)
        members["outbox"] = outbox.map(JSONValue.string)
        members["followers"] = followers.map(JSONValue.string)
        members["following"] = following.map(JSONValue.string)
        members["endpoints"] = endpoints.map { endpoints in
            .object(endpoints.sharedInbox.map { ["sharedInbox": .string($0)] } ?? [:])
        }
        members["publicKey"] = publicKey.map { key in
            ["id": .string(key.id), "owner": .string(key.owner), "publicKeyPem": .string(key.publicKeyPem)]
        }
        members["manuallyApprovesFollowers"] = manuallyApprovesFollowers.map(JSONValue.bool)
        members["discoverable"] = discoverable.map(JSONValue.bool)
        members["indexable"] = indexable.map(JSONValue.bool)
        members["featured"] = featured.map(JSONValue.string)
    }

    private func writeCollection(into members: inout [String: JSONValue]) {
        members["totalItems"] = totalItems.map { .number(Double($0)) }
        members["first"] = first?.jsonValue
        members["last"] = last?.jsonValue
        members["next"] = next?.jsonValue
        members["prev"] = prev?.jsonValue
        members["partOf"] = partOf.map(JSONValue.string)
        if let items {
            // Both spellings are known keys; drop the one not written so `extra` cannot hold it.
            let ordered = types.contains { $0.hasPrefix("Ordered") }
            members[ordered ? "orderedItems" : "items"] = .array(items.map(\.jsonValue))
            members[ordered ? "items" : "orderedItems"] = nil
        }
        members["likes"] = likes?.jsonValue
        members["replies"] = replies?.jsonValue
        members["shares"] = shares?.jsonValue
    }

    private static func list(_ ids: [String]) -> JSONValue? {
        ids.isEmpty ? nil : .array(ids.map(JSONValue.string))
    }
}

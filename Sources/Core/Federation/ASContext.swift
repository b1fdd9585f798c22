import Activity

/// The `@context` values FedNode sends, with the extension terms Mastodon and Pixelfed use.
package enum ASContext {
    /// ActivityStreams + security v1 + the extension terms used on actors and posts.
    package static let standard: JSONValue = .array([
        .string(ActivityStreams.contextURL),
        .string(ActivityStreams.securityContextURL),
        .object([
            "manuallyApprovesFollowers": .string("as:manuallyApprovesFollowers"),
            "sensitive": .string("as:sensitive"),
            "Hashtag": .string("as:Hashtag"),
            "toot": .string("http://joinmastodon.org/ns#"),
            "discoverable": .string("toot:discoverable"),
            "featured": .object(["@id": .string("toot:featured"), "@type": .string("@id")]),
            "alsoKnownAs": .object(["@id": .string("as:alsoKnownAs"), "@type": .string("@id")]),
            "movedTo": .object(["@id": .string("as:movedTo"), "@type": .string("@id")]),
            "indexable": .string("toot:indexable"),
            "blurhash": .string("toot:blurhash"),
            "focalPoint": .object(["@container": .string("@list"), "@id": .string("toot:focalPoint")]),
            "schema": .string("http://schema.org#"),
            "PropertyValue": .string("schema:PropertyValue"),
            "value": .string("schema:value"),
            "vcard": .string("http://www.w3.org/2006/vcard/ns#"),
        ]),
    ])

    /// ActivityStreams only, for collections and simple activities.
    package static let activityStreams: JSONValue = .string(ActivityStreams.contextURL)
}

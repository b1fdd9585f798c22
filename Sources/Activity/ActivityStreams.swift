/// Constants and small predicates of ActivityStreams 2.0 and ActivityPub.
public enum ActivityStreams {
    /// The ActivityStreams JSON-LD context.
    public static let contextURL = "https://www.w3.org/ns/activitystreams"
    /// The security vocabulary context (`publicKey`, `publicKeyPem`, `owner`).
    public static let securityContextURL = "https://w3id.org/security/v1"
    /// The special Public collection (ActivityPub 5.6).
    public static let publicAddress = "https://www.w3.org/ns/activitystreams#Public"
    /// The ActivityPub media type.
    public static let mediaType = "application/activity+json"
    /// The JSON-LD media type with the ActivityStreams profile (ActivityPub 7).
    public static let ldMediaType = "application/ld+json; profile=\"https://www.w3.org/ns/activitystreams\""

    /// The forms of the Public address seen in the wild: the full IRI (https and http),
    /// the compact `as:Public`, and the bare term `Public` (ActivityPub 5.6).
    private static let publicForms: Set<String> = [
        publicAddress, "http://www.w3.org/ns/activitystreams#Public", "as:Public", "Public",
    ]

    /// True when `address` names the Public collection in any of its forms.
    public static func isPublic(_ address: String) -> Bool {
        publicForms.contains(address)
    }

    /// True for Accept/Content-Type values naming application/activity+json or
    /// application/ld+json (any params/quality/spacing/case; a comma list).
    /// An entry with `q=0` means "not acceptable" (RFC 9110 12.4.2) and does not count.
    public static func isActivityPubMediaType(_ headerValue: String) -> Bool {
        headerValue.split(separator: ",").contains { entry in
            let parts = entry.split(separator: ";").map { $0.trimmingSpaces.lowercased() }
            guard let type = parts.first,
                  type == "application/activity+json" || type == "application/ld+json" else { return false }
            return !parts.dropFirst().contains { isZeroQuality($0) }
        }
    }

    private static func isZeroQuality(_ parameter: String) -> Bool {
        let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces }
        guard pair.count == 2, pair[0] == "q", let quality = Double(pair[1]) else { return false }
        return quality == 0
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isBlank($0) }),
              let end = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[start...end])
    }
}

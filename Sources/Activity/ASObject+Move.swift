extension ASObject {
    /// `alsoKnownAs`: the other actor ids an actor says it is (account migration; Mastodon's
    /// `as:alsoKnownAs`). Ids from strings, objects or a single value; set an empty list to drop it.
    public var alsoKnownAs: [String] {
        get { (extra["alsoKnownAs"]?.asList ?? []).compactMap(JSONValue.idOf) }
        set { extra["alsoKnownAs"] = newValue.isEmpty ? nil : .array(newValue.map(JSONValue.string)) }
    }

    /// `movedTo`: the actor an account moved to (Mastodon's `as:movedTo`); `nil` when absent.
    public var movedTo: String? {
        get { extra["movedTo"].flatMap(JSONValue.idOf) }
        set { extra["movedTo"] = newValue.map(JSONValue.string) }
    }
}

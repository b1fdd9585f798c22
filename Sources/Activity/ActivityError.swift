/// The one error type of the `Activity` target.
///
/// Every case describes bad input from outside (a remote server or a client); none of them
/// is a bug in FedNode. The node maps them to `400 Bad Request` in one place.
public enum ActivityError: Error, Sendable, Equatable {
    /// The bytes are not valid JSON (or not UTF-8).
    case invalidJSON
    /// The JSON nests deeper than the given limit (`JSONLimits.federation.depth` unless told otherwise).
    case tooDeep(limit: Int)
    /// The JSON holds more values than the given limit (`JSONLimits.federation.values` unless
    /// told otherwise).
    case tooManyValues(limit: Int)
    /// The JSON is valid but its top level is not an object.
    case notAnObject
    /// The top-level object has no `type` (or `type` is neither a string nor an array of strings).
    case missingType
    /// A WebFinger resource that is not `acct:NAME@DOMAIN`, `NAME@DOMAIN`, `@NAME@DOMAIN`
    /// or an http(s) URL; carries the offending input.
    case malformedResource(String)
}

/// Cheap limits on JSON texts, checked before anything parses them.
public enum JSONLimits {
    /// The deepest nesting FedNode parses. Real ActivityPub documents stay under 10
    /// (Create → Note → replies → first → items); 64 leaves room for odd but honest senders.
    public static let maxDepth = 64
    /// How many ids of an `object` array are read (a report names an account and some posts).
    public static let maxObjectIds = 100

    /// Max nesting depth of a JSON text, scanned without parsing: counts `[` and `{` outside
    /// strings, honouring backslash escapes inside strings. `0` for a bare scalar.
    /// Malformed texts still get a number; the parser rejects them afterwards.
    public static func depth(of bytes: [UInt8]) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
            default: break
            }
        }
        return deepest
    }
}

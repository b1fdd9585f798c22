/// Cheap limits on JSON texts, checked by one scan of the bytes before anything parses them: a
/// megabyte of `[` costs a scan, not a recursion per byte, and a megabyte of `{},` is refused
/// before a single value is built.
public struct JSONLimits: Sendable, Equatable {
    /// The deepest nesting of arrays and objects accepted (`0` for a bare scalar).
    public var depth: Int
    /// The most values accepted: every scalar, array and object counts once (object keys do not).
    public var values: Int

    /// Limits of `depth` nesting and `values` values.
    public init(depth: Int, values: Int) {
        self.depth = depth
        self.values = values
    }

    /// Documents other servers send or serve. Real ActivityPub documents nest under 10
    /// (Create → Note → replies → first → items) and hold a few hundred values; a collection page
    /// of embedded posts a few thousand. 64 and 100,000 leave room for odd but honest senders.
    public static let federation = JSONLimits(depth: 64, values: 100_000)
    /// Bodies posted to an inbox: one activity, nested less than a fetched collection may be.
    public static let inbox = JSONLimits(depth: 32, values: 100_000)
    /// Bodies of client API requests (a status, a profile, a filter): no Mastodon request nests
    /// past 4 or sends more than a few hundred values.
    public static let clientRequest = JSONLimits(depth: 32, values: 10_000)

    /// How many ids of an `object` array are read (a report names an account and some posts).
    public static let maxObjectIds = 100

    /// Refuses `bytes` when they nest deeper or hold more values than these limits allow,
    /// stopping at the first byte past either; malformed texts are left to the parser.
    /// - Throws: `ActivityError.tooDeep` or `.tooManyValues`.
    public func check(_ bytes: [UInt8]) throws(ActivityError) {
        let shape = JSONShape.scan(bytes, stopAfter: self)
        guard shape.depth <= depth else { throw .tooDeep(limit: depth) }
        guard shape.values <= values else { throw .tooManyValues(limit: values) }
    }

    /// Max nesting depth of a JSON text, scanned without parsing: counts `[` and `{` outside
    /// strings, honouring backslash escapes inside strings. `0` for a bare scalar.
    /// Malformed texts still get a number; the parser rejects them afterwards.
    public static func depth(of bytes: [UInt8]) -> Int { JSONShape.scan(bytes).depth }

    /// How many values a JSON text holds, scanned without parsing (see `JSONShape`).
    public static func valueCount(of bytes: [UInt8]) -> Int { JSONShape.scan(bytes).values }
}

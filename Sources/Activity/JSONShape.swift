/// How deep a JSON text nests and how many values it holds, from one pass over its bytes
/// without parsing: what `JSONLimits` checks.
///
/// Outside strings (backslash escapes honoured inside them), `[` and `{` open a level and
/// `]` and `}` close one. A valid text holds one value, plus one for each `,` (each separates
/// two values, or two members whose keys are not counted), plus one for each non-empty array
/// or object (its first element). Malformed texts still get numbers; the parser refuses them.
struct JSONShape: Equatable {
    /// The deepest nesting (0 for a bare scalar).
    var depth = 0
    /// The values: scalars, arrays and objects.
    var values = 0

    /// The shape of `bytes`; with `limits`, the scan stops once either is exceeded (the numbers
    /// are then past the limit but not the text's whole count).
    static func scan(_ bytes: [UInt8], stopAfter limits: JSONLimits? = nil) -> JSONShape {
        let maxDepth = limits?.depth ?? .max
        let maxValues = limits?.values ?? .max
        var shape = JSONShape(depth: 0, values: bytes.isEmpty ? 0 : 1)
        var level = 0
        var inString = false
        var escaped = false
        var previous: UInt8 = 0  // the last byte outside strings that is not whitespace
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
                level += 1
                shape.depth = max(shape.depth, level)
                shape.values += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                level = max(0, level - 1)
                // An empty array or object has no first element after all.
                if previous == UInt8(ascii: "[") || previous == UInt8(ascii: "{") { shape.values -= 1 }
            case UInt8(ascii: ","): shape.values += 1
            case 0x20, 0x09, 0x0A, 0x0D: continue
            default: break
            }
            previous = byte
            if shape.depth > maxDepth || shape.values > maxValues { break }
        }
        return shape
    }
}

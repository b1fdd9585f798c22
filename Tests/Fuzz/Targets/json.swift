import Foundation
@testable import Activity

/// JSON parser: never crashes; what it accepts respects the depth limit, and serialising an
/// accepted value and parsing it again gives the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let depth = JSONLimits.depth(of: [UInt8](data))
    let value: JSONValue
    do {
        value = try JSONValue.parse(data)
    } catch .tooDeep {
        fuzzCheck(depth > JSONLimits.maxDepth, "tooDeep for a text of depth \(depth)")
        return 0
    } catch {
        return 0
    }
    fuzzCheck(depth <= JSONLimits.maxDepth, "accepted a text of depth \(depth)")
    // At most: a repeated key keeps only its last value, which may nest less than the text.
    fuzzCheck(nesting(of: value) <= depth, "scanned depth \(depth), parsed depth \(nesting(of: value))")
    let encoded = value.encoded()
    let again = try? JSONValue.parse(encoded)
    fuzzCheck(again == value, "round trip changed \(value) into \(String(describing: again))")
    return 0
}

/// How deeply arrays and objects nest in `value` (0 for a scalar), as `JSONLimits` counts it.
private func nesting(of value: JSONValue) -> Int {
    switch value {
    case .array(let elements): return 1 + (elements.map(nesting).max() ?? 0)
    case .object(let members): return 1 + (members.values.map(nesting).max() ?? 0)
    default: return 0
    }
}

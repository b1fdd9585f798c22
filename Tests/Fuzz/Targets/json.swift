import Foundation
@testable import Activity

/// JSON parser: never crashes; what it accepts respects the depth and value limits, what it
/// refuses for them is really past them, and serialising an accepted value and parsing it
/// again gives the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let depth = JSONLimits.depth(of: [UInt8](data))
    let values = JSONLimits.valueCount(of: [UInt8](data))
    // Small limits, so inputs of a few kilobytes reach them.
    let limits = JSONLimits(depth: 16, values: 200)
    let value: JSONValue
    do {
        value = try JSONValue.parse(data, limits: limits)
    } catch .tooDeep {
        fuzzCheck(depth > limits.depth, "tooDeep for a text of depth \(depth)")
        return 0
    } catch .tooManyValues {
        fuzzCheck(values > limits.values, "tooManyValues for a text of \(values) values")
        return 0
    } catch {
        return 0
    }
    fuzzCheck(depth <= limits.depth, "accepted a text of depth \(depth)")
    fuzzCheck(values <= limits.values, "accepted a text of \(values) values")
    // At most: a repeated key keeps only its last value, which may nest less than the text.
    fuzzCheck(nesting(of: value) <= depth, "scanned depth \(depth), parsed depth \(nesting(of: value))")
    fuzzCheck(parsedValues(in: value) <= values, "scanned \(values) values, parsed \(parsedValues(in: value))")
    let encoded = value.encoded()
    let again = try? JSONValue.parse(encoded)
    fuzzCheck(again == value, "round trip changed \(value) into \(String(describing: again))")
    // Without repeated keys the scan counts exactly what the parser built.
    fuzzCheck(JSONLimits.valueCount(of: [UInt8](encoded)) == parsedValues(in: value), "count of the encoded text")
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

/// How many values `value` holds, itself included, as `JSONLimits` counts them.
private func parsedValues(in value: JSONValue) -> Int {
    switch value {
    case .array(let elements): return 1 + elements.map(parsedValues(in:)).reduce(0, +)
    case .object(let members): return 1 + members.values.map(parsedValues(in:)).reduce(0, +)
    default: return 1
    }
}

import Foundation
import Activity

/// The subset of JSON Schema draft-04 that the NodeInfo schema uses: `type`, `enum`,
/// `required`, `properties`, `additionalProperties` (boolean), `items`, `minItems`,
/// `minProperties`, `minimum` and `pattern`. Returns one message per violation.
struct JSONSchemaChecker {
    let schema: JSONValue

    func violations(of value: JSONValue) -> [String] {
        check(value, against: schema, at: "$")
    }

    private func check(_ value: JSONValue, against schema: JSONValue, at path: String) -> [String] {
        var problems: [String] = []
        if let type = schema["type"]?.stringValue, !matches(value, type: type) {
            return ["\(path): expected \(type)"]
        }
        if let allowed = schema["enum"]?.arrayValue, !allowed.contains(value) {
            problems.append("\(path): \(value) not in enum")
        }
        if let pattern = schema["pattern"]?.stringValue, let text = value.stringValue,
           (try? Regex(pattern).wholeMatch(in: text)) == nil, (try? Regex(pattern).firstMatch(in: text)) == nil {
            problems.append("\(path): \(text) does not match \(pattern)")
        }
        if let minimum = schema["minimum"]?.doubleValue, let number = value.doubleValue, number < minimum {
            problems.append("\(path): \(number) < \(minimum)")
        }
        if let elements = value.arrayValue { problems += checkArray(elements, schema, path) }
        if let members = value.objectValue { problems += checkObject(members, schema, path) }
        return problems
    }

    private func checkArray(_ elements: [JSONValue], _ schema: JSONValue, _ path: String) -> [String] {
        var problems: [String] = []
        if let minItems = schema["minItems"]?.intValue, elements.count < minItems {
            problems.append("\(path): fewer than \(minItems) items")
        }
        if let items = schema["items"] {
            for (index, element) in elements.enumerated() {
                problems += check(element, against: items, at: "\(path)[\(index)]")
            }
        }
        return problems
    }

    private func checkObject(_ members: [String: JSONValue], _ schema: JSONValue, _ path: String) -> [String] {
        var problems: [String] = []
        let properties = schema["properties"]?.objectValue ?? [:]
        for key in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[key] == nil {
            problems.append("\(path): missing \(key)")
        }
        if let minProperties = schema["minProperties"]?.intValue, members.count < minProperties {
            problems.append("\(path): fewer than \(minProperties) properties")
        }
        for (key, member) in members {
            if let propertySchema = properties[key] {
                problems += check(member, against: propertySchema, at: "\(path).\(key)")
            } else if schema["additionalProperties"] == .bool(false) {
                problems.append("\(path): unexpected \(key)")
            }
        }
        return problems
    }

    private func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null),
             ("number", .number): return true
        case ("integer", .number(let number)): return number == number.rounded()
        default: return false
        }
    }
}

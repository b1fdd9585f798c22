/// A component identifier of RFC 9421 2: a name (`@method`, `content-type`) and parameters
/// (`;name="Pet"`, `;bs`).
struct ComponentIdentifier {
    /// The component name as received; field names are matched case-insensitively.
    var name: String
    /// The identifier's parameters, in order.
    var parameters: StructuredField.Parameters

    /// Reads the form used by `MessageSignature.Input.components`: the name, then the
    /// serialized parameters, e.g. `@query-param;name="Pet"`.
    /// - Throws: `SignatureError.malformedSignatureHeader` when the parameters do not parse.
    init(_ component: String) throws(SignatureError) {
        let split = component.firstIndex(of: ";") ?? component.endIndex
        name = String(component[..<split])
        guard !name.isEmpty, !name.contains("\"") else { throw .malformedSignatureHeader("invalid component \(component)") }
        let item = try StructuredField.parseItem("\"\(name)\"" + component[split...])
        parameters = item.parameters
    }

    /// The same identifier with its name lowercased, as RFC 9421 2.1 requires for field names.
    func lowercasingName() -> ComponentIdentifier {
        var copy = self
        copy.name = name.lowercased()
        return copy
    }

    /// The form used by `MessageSignature.Input.components`: the name, then its parameters.
    var component: String { name + StructuredField.serialize(parameters) }

    /// The identifier as an sf-string with parameters, as in the signature base (RFC 9421 2.5).
    var serialized: String { StructuredField.serialize(.string(name)) + StructuredField.serialize(parameters) }

    /// The value of a string parameter such as `name`, or `nil`.
    func stringParameter(_ key: String) -> String? {
        guard case .string(let value)? = parameters.first(where: { $0.key == key })?.value else { return nil }
        return value
    }

    /// Whether a boolean flag such as `bs` is set.
    func flag(_ key: String) -> Bool {
        parameters.first(where: { $0.key == key })?.value == .boolean(true)
    }
}

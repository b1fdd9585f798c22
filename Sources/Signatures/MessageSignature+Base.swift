import Foundation

extension MessageSignature {
    /// Builds the signature base of RFC 9421 2.5: one `"identifier": value` line per covered
    /// component, then `"@signature-params": ` and the input as received; `\n` between lines,
    /// no trailing newline.
    /// - Throws: `SignatureError.missingHeader` for an absent covered field,
    ///   `.unsupportedComponent` for one that does not apply to a request (such as `@status`),
    ///   `.malformedSignatureHeader` for an identifier listed twice.
    public static func signatureBase(for request: SignableRequest, input: Input) throws(SignatureError) -> String {
        var lines: [String] = []
        var seen: Set<String> = []
        for component in input.components {
            let identifier = try ComponentIdentifier(component)
            guard seen.insert(identifier.serialized.lowercased()).inserted else {
                throw .malformedSignatureHeader("component \(component) covered twice")
            }
            for value in try componentValues(identifier, in: request) {
                lines.append("\(identifier.serialized): \(value)")
            }
        }
        lines.append("\"@signature-params\": \(input.rawParameters)")
        return lines.joined(separator: "\n")
    }

    private static func componentValues(
        _ identifier: ComponentIdentifier, in request: SignableRequest
    ) throws(SignatureError) -> [String] {
        if identifier.name.hasPrefix("@") { return try derivedValues(identifier, in: request) }
        // RFC 9421 2.1: only `bs` among the field parameters is supported here; `sf`, `key`,
        // `req` and `tr` would need re-serialization or a related response.
        guard identifier.parameters.allSatisfy({ $0.key == "bs" }) else { throw .unsupportedComponent(identifier.component) }
        return [try fieldValue(identifier, in: request)]
    }

    /// RFC 9421 2.1: field line values trimmed and joined with `", "`; with `bs` (2.1.3) each
    /// line becomes a byte sequence first.
    private static func fieldValue(
        _ identifier: ComponentIdentifier, in request: SignableRequest
    ) throws(SignatureError) -> String {
        let name = identifier.name.lowercased()
        var lines = request.headers.filter { $0.name.lowercased() == name }.map { $0.value.trimmingHTTPWhitespace() }
        if lines.isEmpty, name == "host" { lines = [request.authority] }
        guard !lines.isEmpty else { throw .missingHeader(name) }
        if identifier.flag("bs") { lines = lines.map { StructuredField.serialize(.bytes(Array($0.utf8))) } }
        return lines.joined(separator: ", ")
    }

    /// RFC 9421 2.2: the derived components that exist on a request.
    private static func derivedValues(
        _ identifier: ComponentIdentifier, in request: SignableRequest
    ) throws(SignatureError) -> [String] {
        let name = identifier.name.lowercased()
        if name == "@query-param" { return try queryParameterValues(identifier, in: request) }
        guard identifier.parameters.isEmpty else { throw .unsupportedComponent(identifier.component) }
        switch name {
        case "@method": return [request.method]  // 2.2.1
        case "@target-uri": return ["\(request.scheme.lowercased())://\(request.host)\(request.path)"]  // 2.2.2
        case "@authority": return [normalizedAuthority(request)]  // 2.2.3
        case "@scheme": return [request.scheme.lowercased()]  // 2.2.4
        case "@request-target": return [request.path]  // 2.2.5
        case "@path": return [request.pathOnly]  // 2.2.6
        case "@query": return ["?" + (request.query ?? "")]  // 2.2.7: a lone "?" when there is none
        default: throw .unsupportedComponent(identifier.component)
        }
    }

    /// RFC 9421 2.2.3: the authority lowercased, without the scheme's default port.
    private static func normalizedAuthority(_ request: SignableRequest) -> String {
        let authority = request.host.lowercased()
        let defaultPort = request.scheme.lowercased() == "http" ? ":80" : ":443"
        return authority.hasSuffix(defaultPort) ? String(authority.dropLast(defaultPort.count)) : authority
    }

    /// RFC 9421 2.2.8: each value of the named parameter, decoded as form data and
    /// re-encoded with percent-encoding, in the order they appear.
    private static func queryParameterValues(
        _ identifier: ComponentIdentifier, in request: SignableRequest
    ) throws(SignatureError) -> [String] {
        guard let wanted = identifier.stringParameter("name"), identifier.parameters.count == 1 else {
            throw .unsupportedComponent(identifier.component)
        }
        let pairs = (request.query ?? "").split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (name: formDecode(parts[0]), value: parts.count > 1 ? formDecode(parts[1]) : "")
        }
        let values = pairs.filter { percentEncode($0.name) == wanted }.map { percentEncode($0.value) }
        guard !values.isEmpty else { throw .missingHeader(identifier.component) }
        return values
    }

    private static func formDecode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// Percent-encodes all but ALPHA, DIGIT, `*`, `-`, `.`, `_` (the WHATWG
    /// application/x-www-form-urlencoded set), with a space as `%20`.
    private static func percentEncode(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "*-._")
        allowed.formUnion(CharacterSet(charactersIn: "a"..."z"))
        allowed.formUnion(CharacterSet(charactersIn: "A"..."Z"))
        allowed.formUnion(CharacterSet(charactersIn: "0"..."9"))
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

import Foundation

/// HTTP Signatures as in draft-cavage-http-signatures-12, the scheme Mastodon and most of the
/// fediverse sign and verify with.
public enum CavageSignature {
    /// The parameters of a `Signature` header (draft-cavage-12 2.1).
    public struct Parameters: Sendable, Equatable {
        /// `keyId`: for ActivityPub, the URL of the actor's key, e.g. `https://host/users/a#main-key`.
        public var keyId: String
        /// `algorithm` as sent (`rsa-sha256`, `hs2019`), or `nil` when absent.
        public var algorithm: String?
        /// `headers`, lowercased; `["date"]` when absent (the Appendix C default for rsa-sha256).
        public var headers: [String]
        /// The decoded `signature` bytes.
        public var signature: [UInt8]
        /// `created`, seconds since the epoch, when sent.
        public var created: Int?
        /// `expires`, seconds since the epoch, when sent.
        public var expires: Int?

        /// Creates a parameter set.
        public init(
            keyId: String, algorithm: String?, headers: [String], signature: [UInt8],
            created: Int? = nil, expires: Int? = nil
        ) {
            self.keyId = keyId
            self.algorithm = algorithm
            self.headers = headers
            self.signature = signature
            self.created = created
            self.expires = expires
        }
    }

    /// Parses a `Signature` header value, or an `Authorization` value with the `Signature ` scheme.
    /// - Throws: `SignatureError.malformedSignatureHeader` when a parameter is malformed, or
    ///   `keyId` or `signature` is missing (draft-cavage-12 2.1.1, 2.1.4).
    public static func parse(_ headerValue: String) throws(SignatureError) -> Parameters {
        var text = Substring(headerValue.trimmingHTTPWhitespace())
        if text.lowercased().hasPrefix("signature ") { text = text.dropFirst(10) }
        let fields = try parameterFields(text)
        guard let keyId = fields["keyid"], !keyId.isEmpty else { throw .malformedSignatureHeader("missing keyId") }
        guard let encoded = fields["signature"], let signature = Data(base64Encoded: encoded), !signature.isEmpty
        else { throw .malformedSignatureHeader("missing or invalid signature") }
        let headers = fields["headers"].map { $0.lowercased().split(separator: " ").map(String.init) } ?? ["date"]
        guard !headers.isEmpty else { throw .malformedSignatureHeader("empty headers") }
        return Parameters(
            keyId: keyId, algorithm: fields["algorithm"], headers: headers, signature: [UInt8](signature),
            created: try timestamp(fields["created"], "created"), expires: try timestamp(fields["expires"], "expires"))
    }

    /// Builds the signing string of draft-cavage-12 2.3: one `name: value` line per covered
    /// header, joined by `\n`, no trailing newline.
    /// - Parameters:
    ///   - request: the request being signed or verified.
    ///   - headers: the covered names, e.g. `["(request-target)", "host", "date", "digest"]`.
    ///   - created: the `created` parameter, required when `(created)` is covered.
    ///   - expires: the `expires` parameter, required when `(expires)` is covered.
    /// - Throws: `SignatureError.missingHeader` when a covered header is absent.
    public static func signingString(
        for request: SignableRequest, headers: [String], created: Int? = nil, expires: Int? = nil
    ) throws(SignatureError) -> String {
        var lines: [String] = []
        for name in headers.map({ $0.lowercased() }) {
            lines.append("\(name): \(try value(of: name, in: request, created: created, expires: expires))")
        }
        return lines.joined(separator: "\n")
    }

    /// The `Signature` header value for `parameters` (draft-cavage-12 4.1), in the order
    /// Mastodon writes it.
    public static func headerValue(_ parameters: Parameters) -> String {
        var fields = ["keyId=\"\(parameters.keyId)\""]
        if let algorithm = parameters.algorithm { fields.append("algorithm=\"\(algorithm)\"") }
        if let created = parameters.created { fields.append("created=\(created)") }
        if let expires = parameters.expires { fields.append("expires=\(expires)") }
        fields.append("headers=\"\(parameters.headers.joined(separator: " "))\"")
        fields.append("signature=\"\(Data(parameters.signature).base64EncodedString())\"")
        return fields.joined(separator: ",")
    }

    private static func value(
        of name: String, in request: SignableRequest, created: Int?, expires: Int?
    ) throws(SignatureError) -> String {
        switch name {
        case "(request-target)":
            // draft-cavage-12 2.3: lowercased method, a space, the path with its query.
            return "\(request.method.lowercased()) \(request.path)"
        case "(created)":
            guard let created else { throw .missingHeader(name) }
            return String(created)
        case "(expires)":
            guard let expires else { throw .missingHeader(name) }
            return String(expires)
        case "host":
            return request.host
        default:
            guard let value = request.header(name) else { throw .missingHeader(name) }
            return value
        }
    }

    /// Splits `key="value",key=value` pairs (draft-cavage-12 2.1); optional spaces around commas.
    /// Keys are lowercased, so `keyid` from a careless sender is read as `keyId`.
    private static func parameterFields(_ text: Substring) throws(SignatureError) -> [String: String] {
        var fields: [String: String] = [:]
        var rest = text
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            guard !rest.isEmpty else { return fields }
            guard let equals = rest.firstIndex(of: "=") else { throw .malformedSignatureHeader("parameter without value") }
            let key = rest[..<equals].trimmingHTTPWhitespace().lowercased()
            rest = rest[rest.index(after: equals)...].drop { $0 == " " }
            let value: Substring
            if rest.first == "\"" {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else { throw .malformedSignatureHeader("unterminated string") }
                value = body[..<close]
                rest = body[body.index(after: close)...]
            } else {
                value = rest.prefix { $0 != "," }
                rest = rest.dropFirst(value.count)
            }
            guard !key.isEmpty, fields.updateValue(value.trimmingHTTPWhitespace(), forKey: key) == nil else {
                throw .malformedSignatureHeader("empty or repeated parameter \(key)")
            }
        }
    }

    /// Reads a `created`/`expires` value: an integer, or a decimal for `expires` (2.1.5).
    private static func timestamp(_ text: String?, _ name: String) throws(SignatureError) -> Int? {
        guard let text else { return nil }
        guard let seconds = Double(text), seconds.isFinite, abs(seconds) < 1e15 else {
            throw .malformedSignatureHeader("invalid \(name)")
        }
        return Int(seconds.rounded(.down))
    }
}

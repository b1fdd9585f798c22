import Foundation

/// HTTP Message Signatures, RFC 9421: parsing `Signature-Input`/`Signature`, building the
/// signature base, and signing with `rsa-v1_5-sha256`.
public enum MessageSignature {
    /// One member of `Signature-Input` (RFC 9421 4.1): the covered components and parameters.
    public struct Input: Sendable, Equatable {
        /// The dictionary key, e.g. `sig1`.
        public var label: String
        /// Covered component identifiers in order, each the component name followed by its
        /// serialized parameters, e.g. `@method`, `content-digest`, `@query-param;name="Pet"`.
        public var components: [String]
        /// `created`, seconds since the epoch (RFC 9421 2.3).
        public var created: Int?
        /// `expires`, seconds since the epoch.
        public var expires: Int?
        /// `keyid`: for ActivityPub, the URL of the actor's key.
        public var keyId: String?
        /// `alg`, e.g. `rsa-v1_5-sha256`; usually absent, the algorithm then comes from the key.
        public var alg: String?
        /// `nonce`.
        public var nonce: String?
        /// `tag`.
        public var tag: String?
        /// The member's value exactly as received (inner list and parameters), which is the
        /// value of `@signature-params` in the signature base (RFC 9421 2.3).
        public var rawParameters: String

        /// Creates an input from its parts.
        public init(
            label: String, components: [String], created: Int? = nil, expires: Int? = nil, keyId: String? = nil,
            alg: String? = nil, nonce: String? = nil, tag: String? = nil, rawParameters: String
        ) {
            self.label = label
            self.components = components
            self.created = created
            self.expires = expires
            self.keyId = keyId
            self.alg = alg
            self.nonce = nonce
            self.tag = tag
            self.rawParameters = rawParameters
        }
    }

    /// The algorithm this node signs with (RFC 9421 3.3.2).
    public static let rsaAlgorithm = "rsa-v1_5-sha256"

    /// Parses a `Signature-Input` field value, an RFC 8941 dictionary of inner lists (RFC 9421 4.1).
    /// - Throws: `SignatureError.malformedSignatureHeader`.
    public static func parseInputs(_ signatureInputHeader: String) throws(SignatureError) -> [Input] {
        var inputs: [Input] = []
        for entry in try StructuredField.parseDictionary(signatureInputHeader) {
            guard case .innerList(let items, let parameters) = entry.member else {
                throw .malformedSignatureHeader("Signature-Input member \(entry.key) is not an inner list")
            }
            var input = Input(label: entry.key, components: [], rawParameters: entry.raw)
            for item in items {
                guard case .string(let name) = item.value else {
                    throw .malformedSignatureHeader("component identifier is not a string")
                }
                input.components.append(name + StructuredField.serialize(item.parameters))
            }
            try input.apply(parameters)
            inputs.append(input)
        }
        return inputs
    }

    /// Parses a `Signature` field value, an RFC 8941 dictionary of byte sequences (RFC 9421 4.2).
    /// - Returns: the signature bytes by label.
    /// - Throws: `SignatureError.malformedSignatureHeader`.
    public static func parseSignatures(_ signatureHeader: String) throws(SignatureError) -> [String: [UInt8]] {
        var signatures: [String: [UInt8]] = [:]
        for entry in try StructuredField.parseDictionary(signatureHeader) {
            guard case .item(let item) = entry.member, case .bytes(let bytes) = item.value else {
                throw .malformedSignatureHeader("Signature member \(entry.key) is not a byte sequence")
            }
            signatures[entry.key] = bytes
        }
        return signatures
    }

    /// Signs `request` with `rsa-v1_5-sha256` (RFC 9421 3.1) and adds `Signature-Input` and
    /// `Signature` field lines. When `content-digest` is covered and a body is present, sets
    /// `Content-Digest: sha-256=:...:` (RFC 9530); when `date` is covered and absent, sets `Date`.
    /// - Parameters:
    ///   - request: the request to sign, modified in place.
    ///   - label: the dictionary key for this signature.
    ///   - keyId: the `keyid` parameter, the key's URL.
    ///   - privateKey: the signing key.
    ///   - components: covered component identifiers, e.g. `["@method", "@target-uri", "content-digest"]`.
    ///   - created: the signing time.
    /// - Throws: `SignatureError.malformedSignatureHeader` for a label that is not an RFC 8941
    ///   key, other `SignatureError`s when a component cannot be computed or signing fails.
    public static func sign(
        _ request: inout SignableRequest, label: String = "sig1", keyId: String, privateKey: RSAPrivateKey,
        components: [String], created: Date = Date()
    ) throws(SignatureError) {
        // RFC 9421 4.1: the label is a structured-field dictionary key.
        guard (try? StructuredField.parseDictionary(label))?.first?.key == label else {
            throw .malformedSignatureHeader("invalid label \(label)")
        }
        var identifiers: [ComponentIdentifier] = []
        for component in components { identifiers.append(try ComponentIdentifier(component).lowercasingName()) }
        let names = Set(identifiers.map(\.name))
        if let body = request.body, names.contains("content-digest") {
            request.setHeader("Content-Digest", BodyDigest.contentDigestValue(for: body))
        }
        if names.contains("date"), request.header("date") == nil {
            request.setHeader("Date", HTTPDate.format(created))
        }
        let seconds = Int(created.timeIntervalSince1970.rounded(.down))
        let raw = "(\(identifiers.map(\.serialized).joined(separator: " ")));created=\(seconds)"
            + ";keyid=\(StructuredField.serialize(.string(keyId)));alg=\"\(rsaAlgorithm)\""
        let input = Input(
            label: label, components: identifiers.map(\.component), created: seconds, keyId: keyId,
            alg: rsaAlgorithm, rawParameters: raw)
        let base = try signatureBase(for: request, input: input)
        let signature = try privateKey.sign(Array(base.utf8))
        request.headers.append((name: "Signature-Input", value: "\(label)=\(raw)"))
        request.headers.append((name: "Signature", value: "\(label)=\(StructuredField.serialize(.bytes(signature)))"))
    }
}

extension MessageSignature.Input {
    /// Reads the signature parameters of RFC 9421 2.3, checking their types.
    fileprivate mutating func apply(_ parameters: StructuredField.Parameters) throws(SignatureError) {
        for (key, value) in parameters {
            switch (key, value) {
            case ("created", .integer(let number)): created = number
            case ("expires", .integer(let number)): expires = number
            case ("keyid", .string(let text)): keyId = text
            case ("alg", .string(let text)): alg = text
            case ("nonce", .string(let text)): nonce = text
            case ("tag", .string(let text)): tag = text
            case ("created", _), ("expires", _), ("keyid", _), ("alg", _), ("nonce", _), ("tag", _):
                throw .malformedSignatureHeader("signature parameter \(key) has the wrong type")
            default: continue  // RFC 9421 2.3: unknown parameters are carried in @signature-params only.
            }
        }
    }
}

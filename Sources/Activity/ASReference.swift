/// Reference to an object: a bare id or an embedded object (ActivityPub objects arrive either way).
public indirect enum ASReference: Sendable, Equatable {
    /// A bare id (an IRI).
    case id(String)
    /// An embedded object (which may itself carry an id).
    case object(ASObject)

    /// The id, whether bare or from the embedded object.
    public var id: String? {
        switch self {
        case .id(let id): return id
        case .object(let object): return object.id
        }
    }

    /// The embedded object, when there is one.
    public var object: ASObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The reference as a JSON value: a string for a bare id, an object otherwise.
    public var jsonValue: JSONValue {
        switch self {
        case .id(let id): return .string(id)
        case .object(let object): return object.jsonValue
        }
    }

    /// Reads a reference the tolerant way: a string, an object, or the first usable element
    /// of an array; nil for anything else.
    public init?(json: JSONValue) {
        switch json {
        case .string(let id) where !id.isEmpty: self = .id(id)
        case .object(let members): self = .object(ASObject(lenient: members))
        case .array(let elements):
            guard let first = elements.lazy.compactMap({ ASReference(json: $0) }).first else { return nil }
            self = first
        default: return nil
        }
    }
}

extension ASReference: Codable {
    /// Decodes a string, an object or an array (first element); other JSON is a type mismatch.
    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        guard let reference = ASReference(json: json) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "not an id, an object or an array of them"))
        }
        self = reference
    }

    /// Encodes a string for a bare id, an object otherwise.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}

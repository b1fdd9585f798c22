import Core

/// An entity that writes its JSON straight into the output: the same bytes its Codable encoding
/// gives through `APISnakeCaseJSON` (tests compare the two on every such entity), without
/// Codable's containers, the dynamic casts of each value and the snake-case conversion of each
/// key. The entities of every list (statuses with their accounts, photos, mentions and tags,
/// notifications) write themselves: encoding a page of 20 statuses through Codable was about a
/// sixth of the server's CPU on the home timeline (docs/benchmarks-history.md).
///
/// A conformance writes the keys in the order of the type's stored properties (Codable's
/// order), each converted to snake case; `@Nullable` properties as `null` when absent, plain
/// optionals left out.
protocol APIDirectJSON: Encodable {
    /// Writes the entity's JSON.
    func writeJSON(to output: inout JSONBuffer) throws
}

extension Array: APIDirectJSON where Element: APIDirectJSON {
    func writeJSON(to output: inout JSONBuffer) throws {
        output.bytes.append(UInt8(ascii: "["))
        for index in indices {
            if index > startIndex { output.bytes.append(UInt8(ascii: ",")) }
            try self[index].writeJSON(to: &output)
        }
        output.bytes.append(UInt8(ascii: "]"))
    }
}

/// Writes one JSON object: `{`, the entries with their separators, `}` at `end(_:)`. It holds
/// the output's bytes meanwhile (moved, not copied) and hands them back at the end.
struct JSONObjectWriter {
    private var output = JSONBuffer()
    private var empty = true

    /// Opens the object, taking `output`'s bytes until `end(_:)`.
    init(_ output: inout JSONBuffer) {
        swap(&self.output, &output)
        self.output.bytes.append(UInt8(ascii: "{"))
    }

    /// Closes the object and gives the bytes back to `output`.
    mutating func end(_ output: inout JSONBuffer) {
        self.output.bytes.append(UInt8(ascii: "}"))
        swap(&self.output, &output)
    }

    /// The separator and `"name":` (`name` is written as it is: snake case, nothing to escape).
    private mutating func key(_ name: StaticString) {
        if !empty { output.bytes.append(UInt8(ascii: ",")) }
        empty = false
        output.bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { output.bytes.append(contentsOf: $0) }
        output.bytes.append(UInt8(ascii: "\""))
        output.bytes.append(UInt8(ascii: ":"))
    }

    /// Any other value, through `JSONBytes` (its Codable encoding).
    private mutating func encoded<T: Encodable>(_ value: T) throws {
        let writer = JSONBytes()
        swap(&writer.buffer, &output)
        defer { swap(&writer.buffer, &output) }
        try writer.value(value)
        if let problem = writer.problem { throw problem }
    }

    mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        output.string(value)
    }

    mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        output.integer(value)
    }

    mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        output.bool(value)
    }

    mutating func field(_ name: StaticString, _ value: Double) throws {
        key(name)
        try output.number(value)
    }

    mutating func field<T: APIDirectJSON>(_ name: StaticString, _ value: T) throws {
        key(name)
        try value.writeJSON(to: &output)
    }

    /// A `@Nullable` string: `null` when absent.
    mutating func nullable(_ name: StaticString, _ value: String?) {
        key(name)
        if let value { output.string(value) } else { output.null() }
    }

    /// A `@Nullable` integer: `null` when absent.
    mutating func nullable(_ name: StaticString, _ value: Int?) {
        if let value { field(name, value) } else {
            key(name)
            output.null()
        }
    }

    /// A `@Nullable` entity: `null` when absent.
    mutating func nullable<T: APIDirectJSON>(_ name: StaticString, _ value: T?) throws {
        key(name)
        if let value { try value.writeJSON(to: &output) } else { output.null() }
    }

    /// A plain optional: left out when absent.
    mutating func ifPresent(_ name: StaticString, _ value: Bool?) {
        if let value { field(name, value) }
    }

    /// A plain optional: left out when absent.
    mutating func ifPresent(_ name: StaticString, _ value: String?) {
        if let value { field(name, value) }
    }

    /// A plain optional entity: left out when absent.
    mutating func ifPresent<T: APIDirectJSON>(_ name: StaticString, _ value: T?) throws {
        if let value { try field(name, value) }
    }

    /// A plain optional of any other type, through its Codable encoding: left out when absent.
    mutating func ifPresentEncoded<T: Encodable>(_ name: StaticString, _ value: T?) throws {
        guard let value else { return }
        key(name)
        try encoded(value)
    }
}

/// Escaping and entity decoding for HTML text and attribute values.
enum HTMLText {
    /// Escapes `&`, `<`, `>` and `"`, scalar by scalar (a combining mark cannot hide a `<`).
    static func escape(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output.append(contentsOf: "&amp;".unicodeScalars)
            case "<": output.append(contentsOf: "&lt;".unicodeScalars)
            case ">": output.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": output.append(contentsOf: "&quot;".unicodeScalars)
            case "\u{0}": continue
            default: output.append(scalar)
            }
        }
        return String(output)
    }

    /// Decodes character references: numeric (`&#106;`, `&#x6A;`, with or without `;`, as
    /// browsers do) and named ones from `HTMLEntities.named` (with `;`; `amp`, `lt`, `gt` and
    /// `quot` also without). Invalid code points become U+FFFD; unknown names stay as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "&", let (decoded, end) = reference(in: scalars, at: index) {
                output.append(contentsOf: decoded)
                index = end
            } else {
                output.append(scalars[index])
                index += 1
            }
        }
        return String(output)
    }

    private static func reference(in scalars: [Unicode.Scalar], at start: Int) -> ([Unicode.Scalar], Int)? {
        let next = start + 1
        guard next < scalars.count else { return nil }
        if scalars[next] == "#" { return numeric(in: scalars, at: next + 1) }
        var end = next
        while end < scalars.count, end - next < 32, scalars[end].properties.isASCIIHexDigit || isASCIILetter(scalars[end]) {
            end += 1
        }
        let name = String(String.UnicodeScalarView(scalars[next..<end]))
        if end < scalars.count, scalars[end] == ";", let value = HTMLEntities.named[name] {
            return (Array(value.unicodeScalars), end + 1)
        }
        if let value = HTMLEntities.legacy[name] { return (Array(value.unicodeScalars), end) }
        return nil
    }

    private static func numeric(in scalars: [Unicode.Scalar], at start: Int) -> ([Unicode.Scalar], Int)? {
        var index = start
        let hex = index < scalars.count && (scalars[index] == "x" || scalars[index] == "X")
        if hex { index += 1 }
        let digitsStart = index
        var value: UInt32 = 0
        while index < scalars.count, let digit = digitValue(scalars[index], hex: hex) {
            value = value > 0x10FFFF ? value : value * (hex ? 16 : 10) + digit
            index += 1
        }
        guard index > digitsStart else { return nil }
        if index < scalars.count, scalars[index] == ";" { index += 1 }
        let scalar = value == 0 ? nil : Unicode.Scalar(value)
        return ([scalar ?? "\u{FFFD}"], index)
    }

    private static func digitValue(_ scalar: Unicode.Scalar, hex: Bool) -> UInt32? {
        switch scalar.value {
        case 0x30...0x39: return scalar.value - 0x30
        case 0x41...0x46 where hex: return scalar.value - 0x41 + 10
        case 0x61...0x66 where hex: return scalar.value - 0x61 + 10
        default: return nil
        }
    }

    /// True for A-Z and a-z.
    static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        (0x41...0x5A).contains(scalar.value) || (0x61...0x7A).contains(scalar.value)
    }
}

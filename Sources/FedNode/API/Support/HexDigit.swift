import Core

/// Hexadecimal digits as percent-encoding writes them (RFC 3986 2.1), either letter case.
enum HexDigit {
    /// The value of `byte` as one hex digit, or `nil` when it is not one.
    static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

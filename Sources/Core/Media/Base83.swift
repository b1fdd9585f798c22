/// The base-83 digits BlurHash uses (woltapp/blurhash, Algorithm.md "Base 83").
package enum Base83 {
    /// The 83 digits, most significant value last.
    package static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")

    private static let values: [Character: Int] = Dictionary(
        uniqueKeysWithValues: alphabet.enumerated().map { ($1, $0) })

    /// Writes `value` as exactly `length` digits, most significant first.
    /// - Parameters:
    ///   - value: A non-negative number below 83^length.
    ///   - length: Number of digits.
    /// - Returns: The digits.
    package static func encode(_ value: Int, length: Int) -> String {
        var digits: [Character] = []
        var divisor = 1
        for _ in 1..<max(length, 1) { divisor *= 83 }
        for _ in 0..<length {
            digits.append(alphabet[(value / divisor) % 83])
            divisor = max(divisor / 83, 1)
        }
        return String(digits)
    }

    /// Reads a run of digits back into a number.
    /// - Parameter text: Base-83 digits.
    /// - Returns: The value, or `nil` if a character is not a digit.
    package static func decode<S: StringProtocol>(_ text: S) -> Int? {
        var value = 0
        for character in text {
            guard let digit = values[character] else { return nil }
            value = value * 83 + digit
        }
        return value
    }
}

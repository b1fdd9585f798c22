@testable import Core
import Foundation
import Testing
@testable import FedNode

/// Query strings and form bodies are decoded byte by byte (`APIParams.formDecode`); they must
/// read as Foundation's `removingPercentEncoding` read them, malformed text included, except
/// that bytes which are not UTF-8 always leave the text as sent (Foundation turns some lone
/// bytes into U+FFFD and refuses others).
@Suite("Form decoding")
struct FormDecodingTests {
    /// What the decoder replaced: `+` as a space, then Foundation's percent decoding, the text
    /// as sent (with spaces) when that fails or repairs bytes that are not UTF-8.
    private static func foundation(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        guard let decoded = spaced.removingPercentEncoding, !decoded.unicodeScalars.contains("\u{FFFD}") else { return spaced }
        return decoded
    }

    @Test("agrees with Foundation on hand-picked and generated text", arguments: [
        "", "plain", "a+b", "caf%C3%A9", "%E2%9C%93+done", "100%", "%", "%4", "%zz", "%4g", "%C3", "%C3%28", "%FF%FE", "%A9", "a%A9",
        "%00", "%2B%2b", "max_id=5", "caf\u{E9}", "%e2%9c%93", "a%20b+c", "%%41", "types%5B%5D", "ü+%C3%BC",
    ])
    func agreesWithFoundation(_ text: String) {
        #expect(APIParams.formDecode(text[...]) == Self.foundation(text[...]))
    }

    @Test("agrees with Foundation on 20,000 random strings of escapes, pluses and UTF-8")
    func randomText() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["%", "+", "2", "B", "c", "3", "A", "9", "%C3", "%A9", "%E2%9C", "%93", "é", "✓", "a", "%G", "%0", "="]
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(APIParams.formDecode(text[...]) == Self.foundation(text[...]), "\(text)")
        }
    }
}

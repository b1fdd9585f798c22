import Foundation
import Signatures
import Testing

/// IMF-fixdate formatting and parsing for the `Date` header (RFC 9110 5.6.7).
@Suite struct HTTPDateTests {
    @Test(arguments: [
        (1_750_000_000, "Sun, 15 Jun 2025 15:06:40 GMT"),
        (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (-94_607_995, "Mon, 02 Jan 1967 00:00:05 GMT"),
        (4_102_444_799, "Thu, 31 Dec 2099 23:59:59 GMT"),
        (1_388_957_500, "Sun, 05 Jan 2014 21:31:40 GMT"),
    ])
    func formatsAndParses(_ seconds: Int, _ text: String) {
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        #expect(HTTPDate.format(date) == text)
        #expect(HTTPDate.parse(text) == date)
    }

    @Test func fractionalSecondsAreDropped() {
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 1_750_000_000.9)) == "Sun, 15 Jun 2025 15:06:40 GMT")
    }

    @Test(arguments: [
        "", "yesterday", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT",
    ])
    func otherFormsAreRejected(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}

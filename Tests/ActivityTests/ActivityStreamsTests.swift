import Foundation
import Testing
import Activity

@Suite("ActivityStreams constants, media types and dates")
struct ActivityStreamsTests {
    @Test(arguments: [
        "application/activity+json",
        "application/activity+json; charset=utf-8",
        "Application/Activity+JSON",
        #"application/ld+json; profile="https://www.w3.org/ns/activitystreams""#,
        #"application/ld+json;profile="https://www.w3.org/ns/activitystreams""#,
        "text/html, application/activity+json;q=0.9",
        "  application/ld+json  ",
        "application/json, application/ld+json; q=0.5",
    ])
    func activityPubMediaTypesAreRecognised(header: String) {
        #expect(ActivityStreams.isActivityPubMediaType(header))
    }

    @Test(arguments: [
        "", "text/html", "application/json", "*/*", "application/activity+jsonx",
        "text/html; profile=application/activity+json", "application/activity+json;q=0",
        "application/xml, application/ld+json; q=0.0",
    ])
    func otherMediaTypesAreNot(header: String) {
        #expect(!ActivityStreams.isActivityPubMediaType(header))
    }

    @Test func constantsMatchTheSpecs() {
        #expect(ActivityStreams.ldMediaType == #"application/ld+json; profile="https://www.w3.org/ns/activitystreams""#)
        #expect(ActivityStreams.isActivityPubMediaType(ActivityStreams.ldMediaType))
        #expect(ActivityStreams.isActivityPubMediaType(ActivityStreams.mediaType))
        #expect(ActivityStreams.isPublic(ActivityStreams.publicAddress))
    }

    @Test func contextURLsNameTheShippedContextDocuments() throws {
        let activityStreams = try JSONValue.parse(TestFiles.vector("jsonld/activitystreams.jsonld"))
        #expect(activityStreams["@context"]?["Public"] != nil)
        let security = try JSONValue.parse(TestFiles.vector("jsonld/security-v1.jsonld"))
        #expect(security["@context"]?["publicKeyPem"] != nil)
    }

    @Test(arguments: [
        ("2024-11-26T09:14:03Z", 1_732_612_443.0),
        ("2024-11-26T09:14:03.000Z", 1_732_612_443.0),
        ("2024-11-26T09:14:03.5Z", 1_732_612_443.5),
        ("2024-11-26T10:14:03+01:00", 1_732_612_443.0),
        ("2024-11-26T04:44:03-04:30", 1_732_612_443.0),
        ("2024-11-26T09:14:03+0000", 1_732_612_443.0),
        ("2024-11-26T09:14:03", 1_732_612_443.0),
        ("2024-02-29t09:14:03z", 1_709_198_043.0),
        ("1970-01-01T00:00:00Z", 0.0),
    ])
    func datesParseInEveryShapeServersSend(text: String, seconds: Double) {
        #expect(ASDate.parse(text)?.timeIntervalSince1970 == seconds)
    }

    @Test(arguments: ["", "yesterday", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z", "2024-11-26", "2024-11-26T25:00:00Z",
                      "2024-11-26T09:14:03Zjunk", "2024-11-26T09:14:03+1"])
    func nonsenseDatesDoNotParse(text: String) {
        #expect(ASDate.parse(text) == nil)
    }

    @Test func formattingIsUTCInWholeSecondsAsMastodonWrites() throws {
        #expect(ASDate.format(Date(timeIntervalSince1970: 1_732_612_443)) == "2024-11-26T09:14:03Z")
        #expect(ASDate.format(Date(timeIntervalSince1970: 1_732_612_443.25)) == "2024-11-26T09:14:03Z")
        #expect(ASDate.format(Date(timeIntervalSince1970: 1_732_612_443.9996)) == "2024-11-26T09:14:03Z")
        #expect(ASDate.format(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59Z")
        #expect(ASDate.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        let leap = try #require(ASDate.parse("2000-02-29T23:59:59Z"))
        #expect(ASDate.format(leap) == "2000-02-29T23:59:59Z")
    }

    @Test func millisecondTimesAreWhatFoundationsISO8601StyleWrites() throws {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let day = Date.ISO8601FormatStyle().year().month().day()
        var generator = SystemRandomNumberGenerator()
        var seconds: [Double] = [0, -0.0005, -0.5, -1, -86_400, 951_868_799.999, 1_732_612_443.9996, 1_732_612_443.0004,
                                 253_402_300_799.999, -62_135_596_800, 1_764_201_600, 1_764_201_599.9999]
        for _ in 0..<2_000 { seconds.append(Double.random(in: -3_000_000_000...5_000_000_000, using: &generator)) }
        for _ in 0..<200 { seconds.append(Double(Int.random(in: -10_000...10_000, using: &generator)) / 1000) }
        for value in seconds {
            let date = Date(timeIntervalSince1970: value)
            // Before 1600 Foundation's calendar is Julian: left to Foundation.
            guard value >= -11_676_096_000 else {
                #expect(ASDate.formatMilliseconds(date) == nil)
                continue
            }
            #expect(ASDate.formatMilliseconds(date) == date.formatted(style), "\(value)")
            #expect(ASDate.formatMilliseconds(date, dayOnly: true) == date.formatted(day) + "T00:00:00.000Z", "\(value)")
        }
        #expect(ASDate.formatMilliseconds(Date(timeIntervalSince1970: 1_767_219_292.75)) == "2025-12-31T22:14:52.750Z")
        #expect(ASDate.formatMilliseconds(Date(timeIntervalSince1970: 300_000_000_000)) == nil)
    }
}

import Foundation
import Signatures
import Testing

/// Parsing `Signature` values in the shapes servers really send (draft-cavage-12 2.1).
@Suite struct CavageParsingTests {
    static let signature = Data(Array("signature bytes".utf8)).base64EncodedString()

    @Test func mastodonValueParses() throws {
        let value = #"keyId="https://mastodon.example/users/bob#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest content-type",signature="\#(Self.signature)""#
        let parameters = try CavageSignature.parse(value)
        #expect(parameters.keyId == "https://mastodon.example/users/bob#main-key")
        #expect(parameters.headers == ["(request-target)", "host", "date", "digest", "content-type"])
        #expect(parameters.signature == Array("signature bytes".utf8))
        #expect(CavageSignature.headerValue(parameters) == value)
    }

    @Test func spacesAndCaseVariationsAreTolerated() throws {
        let value = #"Signature keyid="k", Algorithm="hs2019" , headers="(Request-Target) Host Date", created=1402170695,signature="\#(Self.signature)""#
        let parameters = try CavageSignature.parse(value)
        #expect(parameters.keyId == "k")
        #expect(parameters.algorithm == "hs2019")
        #expect(parameters.headers == ["(request-target)", "host", "date"])
        #expect(parameters.created == 1_402_170_695)
    }

    @Test func missingHeadersParameterMeansDateOnly() throws {
        #expect(try CavageSignature.parse(#"keyId="k",signature="\#(Self.signature)""#).headers == ["date"])
    }

    @Test(arguments: [
        #"signature="\#(signature)""#,
        #"keyId="k""#,
        #"keyId="k",signature="%%%""#,
        #"keyId="k,signature="\#(signature)""#,
        #"keyId="k",keyId="j",signature="\#(signature)""#,
        #"keyId="k",created=soon,signature="\#(signature)""#,
        #"keyId="k",headers="",signature="\#(signature)""#,
        "keyId",
    ])
    func malformedValuesThrow(_ value: String) {
        #expect(throws: SignatureError.self) { try CavageSignature.parse(value) }
    }

    @Test func missingCoveredHeaderIsNamed() {
        let request = SignableRequest(method: "GET", path: "/", authority: "photos.example")
        #expect(throws: SignatureError.missingHeader("date")) {
            try CavageSignature.signingString(for: request, headers: ["host", "date"])
        }
        #expect(throws: SignatureError.missingHeader("(created)")) {
            try CavageSignature.signingString(for: request, headers: ["(created)"])
        }
    }

    @Test func repeatedHeadersAreCombined() throws {
        let request = SignableRequest(
            method: "GET", path: "/", authority: "photos.example",
            headers: [("Accept", " application/activity+json "), ("X-Other", "1"), ("accept", "application/ld+json")])
        let text = try CavageSignature.signingString(for: request, headers: ["(request-target)", "host", "Accept"])
        #expect(text == "(request-target): get /\nhost: photos.example\naccept: application/activity+json, application/ld+json")
    }
}

import Foundation
import Signatures
import Testing

/// FedNode's acceptance policy for draft-cavage signatures on incoming requests.
@Suite struct SignatureVerifierTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static let keyId = "https://remote.example/users/bob#main-key"
    static let mastodonHeaders = ["(request-target)", "host", "date", "digest", "content-type"]
    static let activity = Array(#"{"type":"Like","actor":"https://remote.example/users/bob"}"#.utf8)

    let privateKey: RSAPrivateKey
    let publicKey: RSAPublicKey
    let verifier = SignatureVerifier()

    init() throws {
        privateKey = try RSAPrivateKey(pem: VectorFiles.text("rfc9421/keys/test-key-rsa.pem"))
        publicKey = privateKey.publicKey
    }

    /// An inbox POST signed like Mastodon, with the chance to change it before signing.
    func signed(
        covering headers: [String] = mastodonHeaders, algorithm: String? = "rsa-sha256", date: Date = now,
        method: String = "POST", body: [UInt8]? = activity, created: Int? = nil, expires: Int? = nil,
        before: (inout SignableRequest) -> Void = { _ in }
    ) throws -> SignableRequest {
        var request = SignableRequest(
            method: method, path: "/users/alice/inbox", authority: "photos.example",
            headers: [("Host", "photos.example"), ("Date", HTTPDate.format(date)), ("Content-Type", "application/activity+json")],
            body: body)
        if let body { request.headers.append(("Digest", "SHA-256=" + Data(Digest.sha256(body)).base64EncodedString())) }
        before(&request)
        let text = try CavageSignature.signingString(for: request, headers: headers, created: created, expires: expires)
        let parameters = CavageSignature.Parameters(
            keyId: Self.keyId, algorithm: algorithm, headers: headers, signature: try privateKey.sign(text.bytes),
            created: created, expires: expires)
        request.setHeader("Signature", CavageSignature.headerValue(parameters))
        return request
    }

    @Test func mastodonStyleSignaturePasses() throws {
        let pending = try verifier.prepare(try signed(), now: Self.now)
        #expect(pending.keyId == Self.keyId)
        #expect(pending.scheme == .cavage)
        #expect(pending.coveredComponents == Self.mastodonHeaders)
        #expect(pending.verify(with: publicKey))
    }

    @Test func elevenHourOldDatePasses() throws {
        let request = try signed(date: Self.now.addingTimeInterval(-11 * 3600))
        #expect(try verifier.prepare(request, now: Self.now).verify(with: publicKey))
    }

    @Test func staleDateIsRejected() throws {
        let request = try signed(date: Self.now.addingTimeInterval(-13 * 3600))
        #expect(throws: SignatureError.dateOutOfRange) { try verifier.prepare(request, now: Self.now) }
    }

    @Test func farFutureDateIsRejected() throws {
        let request = try signed(date: Self.now.addingTimeInterval(2 * 3600))
        #expect(throws: SignatureError.dateOutOfRange) { try verifier.prepare(request, now: Self.now) }
    }

    @Test func unparseableDateIsRejected() throws {
        let request = try signed { $0.setHeader("Date", "yesterday") }
        #expect(throws: SignatureError.invalidDate("yesterday")) { try verifier.prepare(request, now: Self.now) }
    }

    @Test func postWithoutDigestIsRejected() throws {
        let request = try signed(covering: ["(request-target)", "host", "date"]) { $0.removeHeader("Digest") }
        #expect(throws: SignatureError.missingDigest) { try verifier.prepare(request, now: Self.now) }
    }

    @Test func wrongDigestIsRejected() throws {
        let request = try signed {
            $0.setHeader("Digest", "SHA-256=" + Data(Digest.sha256(Array("{}".utf8))).base64EncodedString())
        }
        #expect(throws: SignatureError.digestMismatch) { try verifier.prepare(request, now: Self.now) }
    }

    @Test func lowercaseDigestAlgorithmIsAccepted() throws {
        let request = try signed { $0.setHeader("Digest", "sha-256=" + Data(Digest.sha256(Self.activity)).base64EncodedString()) }
        #expect(try verifier.prepare(request, now: Self.now).verify(with: publicKey))
    }

    @Test func sha512DigestIsAccepted() throws {
        let request = try signed { $0.setHeader("Digest", "SHA-512=" + Data(Digest.sha512(Self.activity)).base64EncodedString()) }
        #expect(try verifier.prepare(request, now: Self.now).verify(with: publicKey))
    }

    @Test func unknownDigestAlgorithmAloneIsRejected() throws {
        let request = try signed { $0.setHeader("Digest", "MD5=HUXZLQLMuI/KZ5KDcJPcOA==") }
        #expect(throws: SignatureError.unsupportedAlgorithm("md5")) { try verifier.prepare(request, now: Self.now) }
    }

    @Test func hs2019IsAcceptedForRSAKeys() throws {
        let request = try signed(algorithm: "hs2019")
        #expect(try verifier.prepare(request, now: Self.now).verify(with: publicKey))
    }

    @Test func hs2019WithCreatedInsteadOfDatePasses() throws {
        let created = Int(Self.now.timeIntervalSince1970) - 5
        let request = try signed(
            covering: ["(request-target)", "host", "(created)", "digest"], algorithm: "hs2019", created: created
        ) { $0.removeHeader("Date") }
        #expect(try verifier.prepare(request, now: Self.now).verify(with: publicKey))
    }

    @Test func expiredSignatureIsRejected() throws {
        let created = Int(Self.now.timeIntervalSince1970) - 600
        let request = try signed(
            covering: ["(request-target)", "host", "(created)", "(expires)", "digest"], algorithm: "hs2019",
            created: created, expires: created + 300)
        #expect(throws: SignatureError.dateOutOfRange) { try verifier.prepare(request, now: Self.now) }
    }

    @Test func missingAlgorithmIsAccepted() throws {
        #expect(try verifier.prepare(try signed(algorithm: nil), now: Self.now).verify(with: publicKey))
    }

    @Test func otherAlgorithmsAreRejected() throws {
        let request = try signed(algorithm: "ecdsa-sha256")
        #expect(throws: SignatureError.unsupportedAlgorithm("ecdsa-sha256")) { try verifier.prepare(request, now: Self.now) }
    }

    @Test func signatureNotCoveringHostIsRejected() throws {
        let request = try signed(covering: ["(request-target)", "date", "digest"])
        #expect(throws: SignatureError.componentsNotCovered("host")) { try verifier.prepare(request, now: Self.now) }
    }

    @Test func signatureNotCoveringTargetIsRejected() throws {
        let request = try signed(covering: ["host", "date", "digest"])
        #expect(throws: SignatureError.componentsNotCovered("(request-target)")) { try verifier.prepare(request, now: Self.now) }
    }

    @Test func tamperedSignatureFails() throws {
        var request = try signed()
        var parameters = try CavageSignature.parse(try #require(request.header("signature")))
        parameters.signature[10] ^= 0x01
        request.setHeader("Signature", CavageSignature.headerValue(parameters))
        #expect(!(try verifier.prepare(request, now: Self.now)).verify(with: publicKey))
    }

    @Test func requestReplayedToAnotherInboxFails() throws {
        var request = try signed()
        request.path = "/users/carol/inbox"
        #expect(!(try verifier.prepare(request, now: Self.now)).verify(with: publicKey))
    }

    @Test func anotherKeyFails() throws {
        let other = try RSAPublicKey(pem: VectorFiles.text("rfc9421/keys/test-key-rsa-pss.pub.pem"))
        #expect(!(try verifier.prepare(try signed(), now: Self.now)).verify(with: other))
    }

    @Test func authorizationHeaderFormIsAccepted() throws {
        var request = try signed()
        let value = try #require(request.header("signature"))
        request.removeHeader("Signature")
        request.headers.append(("Authorization", "Signature " + value))
        #expect(try verifier.prepare(request, now: Self.now).verify(with: publicKey))
    }

    @Test func unsignedRequestIsRejected() throws {
        var request = try signed()
        request.removeHeader("Signature")
        #expect(throws: SignatureError.missingSignature) { try verifier.prepare(request, now: Self.now) }
    }

    @Test func getWithoutBodyNeedsNoDigest() throws {
        let request = try signed(covering: ["(request-target)", "host", "date"], method: "GET", body: nil)
        #expect(try verifier.prepare(request, now: Self.now).verify(with: publicKey))
    }

    @Test func malformedSignatureHeaderIsRejected() {
        var request = SignableRequest(method: "POST", path: "/inbox", authority: "photos.example")
        request.headers = [("Signature", "keyId=\"a\",headers=\"host\"")]
        #expect(throws: SignatureError.malformedSignatureHeader("missing or invalid signature")) {
            try verifier.prepare(request, now: Self.now)
        }
    }
}

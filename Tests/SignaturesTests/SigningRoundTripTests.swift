import Foundation
import Signatures
import Testing

/// Requests signed by this node verify through the verifier, in both schemes.
@Suite struct SigningRoundTripTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static let keyId = "https://photos.example/users/alice#main-key"
    static let note = Array(#"{"type":"Create","object":{"type":"Note","content":"sunset"}}"#.utf8)

    let privateKey: RSAPrivateKey
    let publicKey: RSAPublicKey

    init() throws {
        privateKey = try RSAPrivateKey(pem: VectorFiles.text("rfc9421/keys/test-key-rsa.pem"))
        publicKey = try RSAPublicKey(pem: VectorFiles.text("rfc9421/keys/test-key-rsa.pub.pem"))
    }

    func inboxPost() -> SignableRequest {
        SignableRequest(
            method: "POST", path: "/users/bob/inbox", authority: "remote.example",
            headers: [("Content-Type", "application/activity+json")], body: Self.note)
    }

    @Test func mastodonStylePostIsSignedAndVerifies() throws {
        var request = inboxPost()
        try RequestSigner(keyId: Self.keyId, privateKey: privateKey).sign(&request, now: Self.now)
        #expect(request.header("host") == "remote.example")
        #expect(request.header("date") == "Sun, 15 Jun 2025 15:06:40 GMT")
        #expect(request.header("digest") == "SHA-256=" + Data(Digest.sha256(Self.note)).base64EncodedString())
        let parameters = try CavageSignature.parse(try #require(request.header("signature")))
        #expect(parameters.keyId == Self.keyId)
        #expect(parameters.algorithm == "rsa-sha256")
        #expect(parameters.headers == ["(request-target)", "host", "date", "digest", "content-type"])
        let pending = try SignatureVerifier().prepare(request, now: Self.now.addingTimeInterval(30))
        #expect(pending.signedText.hasPrefix("(request-target): post /users/bob/inbox\nhost: remote.example\n"))
        #expect(pending.verify(with: publicKey))
    }

    @Test func signedGetCoversTargetHostAndDateOnly() throws {
        var request = SignableRequest(method: "GET", path: "/users/bob", authority: "remote.example:8443")
        try RequestSigner(keyId: Self.keyId, privateKey: privateKey).sign(&request, now: Self.now)
        #expect(request.header("digest") == nil)
        #expect(request.header("host") == "remote.example:8443")
        let parameters = try CavageSignature.parse(try #require(request.header("signature")))
        #expect(parameters.headers == ["(request-target)", "host", "date"])
        #expect(try SignatureVerifier().prepare(request, now: Self.now).verify(with: publicKey))
    }

    @Test func resigningReplacesTheOldHeaders() throws {
        var request = inboxPost()
        let signer = RequestSigner(keyId: Self.keyId, privateKey: privateKey)
        try signer.sign(&request, now: Self.now)
        try signer.sign(&request, now: Self.now.addingTimeInterval(3600))
        #expect(request.headers.filter { $0.name == "Signature" || $0.name == "Date" || $0.name == "Host" }.count == 3)
        #expect(try SignatureVerifier().prepare(request, now: Self.now.addingTimeInterval(3600)).verify(with: publicKey))
    }

    @Test func rfc9421SignatureWithTargetURIVerifies() throws {
        var request = inboxPost()
        try MessageSignature.sign(
            &request, keyId: Self.keyId, privateKey: privateKey,
            components: ["@method", "@target-uri", "content-digest", "content-type"], created: Self.now)
        #expect(request.header("content-digest") == "sha-256=:\(Data(Digest.sha256(Self.note)).base64EncodedString()):")
        #expect(
            request.header("signature-input")
                == #"sig1=("@method" "@target-uri" "content-digest" "content-type");created=1750000000;keyid="https://photos.example/users/alice#main-key";alg="rsa-v1_5-sha256""#
        )
        let pending = try SignatureVerifier().prepare(request, now: Self.now)
        #expect(pending.scheme == .rfc9421)
        #expect(pending.keyId == Self.keyId)
        #expect(pending.signedText.hasPrefix("\"@method\": POST\n\"@target-uri\": https://remote.example/users/bob/inbox\n"))
        #expect(pending.verify(with: publicKey))
    }

    @Test func rfc9421SignatureWithPathAuthorityAndDateVerifies() throws {
        var request = inboxPost()
        try MessageSignature.sign(
            &request, label: "fednode", keyId: Self.keyId, privateKey: privateKey,
            components: ["@method", "@path", "@authority", "date", "content-digest"], created: Self.now)
        #expect(request.header("date") == HTTPDate.format(Self.now))
        #expect(try SignatureVerifier().prepare(request, now: Self.now).verify(with: publicKey))
        request.setHeader("Date", HTTPDate.format(Self.now.addingTimeInterval(1)))
        #expect(!(try SignatureVerifier().prepare(request, now: Self.now)).verify(with: publicKey))
    }

    @Test func rfc9421ChangedPathFails() throws {
        var request = inboxPost()
        try MessageSignature.sign(
            &request, keyId: Self.keyId, privateKey: privateKey,
            components: ["@method", "@target-uri", "content-digest"], created: Self.now)
        request.path = "/inbox"
        #expect(!(try SignatureVerifier().prepare(request, now: Self.now)).verify(with: publicKey))
    }

    @Test func rfc9421ChangedBodyFailsTheDigestCheck() throws {
        var request = inboxPost()
        try MessageSignature.sign(
            &request, keyId: Self.keyId, privateKey: privateKey,
            components: ["@method", "@target-uri", "content-digest"], created: Self.now)
        request.body = Array("{}".utf8)
        #expect(throws: SignatureError.digestMismatch) { try SignatureVerifier().prepare(request, now: Self.now) }
    }

    @Test(arguments: [
        (["@target-uri", "content-digest"], "@method"),
        (["@method", "@path", "content-digest"], "@authority"),
        (["@method", "@authority", "content-digest"], "@target-uri"),
        (["@method", "@target-uri"], "digest"),
    ])
    func rfc9421InsufficientCoverageIsRejected(_ components: [String], _ missing: String) throws {
        var request = inboxPost()
        try MessageSignature.sign(&request, keyId: Self.keyId, privateKey: privateKey, components: components, created: Self.now)
        if !components.contains("content-digest") {
            request.headers.append(("Content-Digest", "sha-512=:\(Data(Digest.sha512(Self.note)).base64EncodedString()):"))
        }
        #expect(throws: SignatureError.componentsNotCovered(missing)) { try SignatureVerifier().prepare(request, now: Self.now) }
    }

    @Test func rfc9421StaleCreatedIsRejected() throws {
        var request = inboxPost()
        try MessageSignature.sign(
            &request, keyId: Self.keyId, privateKey: privateKey,
            components: ["@method", "@target-uri", "content-digest"], created: Self.now.addingTimeInterval(-13 * 3600))
        #expect(throws: SignatureError.dateOutOfRange) { try SignatureVerifier().prepare(request, now: Self.now) }
    }

    @Test func rfc9421PicksTheSignatureItCanCheck() throws {
        var request = inboxPost()
        request.headers.append(("Signature-Input", #"eddsa=("@method" "@target-uri");created=1750000000;keyid="k2";alg="ed25519""#))
        request.headers.append(("Signature", "eddsa=:AAAA:"))
        try MessageSignature.sign(
            &request, keyId: Self.keyId, privateKey: privateKey,
            components: ["@method", "@target-uri", "content-digest"], created: Self.now)
        let pending = try SignatureVerifier().prepare(request, now: Self.now)
        #expect(pending.keyId == Self.keyId)
        #expect(pending.verify(with: publicKey))
    }

    @Test func rfc9421OnlyUnsupportedAlgorithmIsRejected() throws {
        var request = inboxPost()
        request.headers.append(("Signature-Input", #"eddsa=("@method" "@target-uri");created=1750000000;keyid="k2";alg="ed25519""#))
        request.headers.append(("Signature", "eddsa=:AAAA:"))
        #expect(throws: SignatureError.unsupportedAlgorithm("ed25519")) { try SignatureVerifier().prepare(request, now: Self.now) }
    }

    @Test func invalidLabelIsRefused() {
        var request = inboxPost()
        #expect(throws: SignatureError.malformedSignatureHeader("invalid label Sig 1")) {
            try MessageSignature.sign(&request, label: "Sig 1", keyId: Self.keyId, privateKey: privateKey, components: ["@method"])
        }
    }

    @Test func queryParameterComponentIsSignedWithItsName() throws {
        var request = SignableRequest(method: "GET", path: "/search?q=sunset%20beach&limit=5", authority: "photos.example")
        try MessageSignature.sign(
            &request, keyId: Self.keyId, privateKey: privateKey,
            components: ["@method", "@target-uri", #"@query-param;name="q""#], created: Self.now)
        let pending = try SignatureVerifier().prepare(request, now: Self.now)
        #expect(pending.signedText.contains("\"@query-param\";name=\"q\": sunset%20beach\n"))
        #expect(pending.verify(with: publicKey))
    }
}

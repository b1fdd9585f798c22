import Foundation
import Signatures
import Testing

/// draft-cavage-http-signatures-12 Appendix C, reproduced byte for byte.
@Suite struct CavageVectorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var headers: [String]
        var file: String
        var testDescription: String { id }
    }

    static let cases = [
        Case(id: "C.1", headers: ["date"], file: "signing-string-c1.txt"),
        Case(id: "C.2", headers: ["(request-target)", "host", "date"], file: "signing-string-c2.txt"),
        Case(
            id: "C.3", headers: ["(request-target)", "host", "date", "content-type", "digest", "content-length"],
            file: "signing-string-c3.txt"),
    ]
    /// The vector request's `Date`, Sun, 05 Jan 2014 21:31:40 GMT.
    static let signedAt = Date(timeIntervalSince1970: 1_388_957_500)

    let request: SignableRequest
    let privateKey: RSAPrivateKey
    let publicKey: RSAPublicKey
    let expected: [String: [String: Any]]

    init() throws {
        request = try VectorFiles.request("cavage-12/request.http")
        privateKey = try RSAPrivateKey(pem: VectorFiles.text("cavage-12/private.pem"))
        publicKey = try RSAPublicKey(pem: VectorFiles.text("cavage-12/public.pem"))
        let cases = try #require(try VectorFiles.json("cavage-12/expected.json")["cases"] as? [[String: Any]])
        expected = Dictionary(uniqueKeysWithValues: cases.map { ($0["id"] as? String ?? "", $0) })
    }

    @Test(arguments: cases)
    func signingStringMatchesPublishedText(_ vector: Case) throws {
        let signingString = try CavageSignature.signingString(for: request, headers: vector.headers)
        #expect(signingString == (try VectorFiles.text("cavage-12/\(vector.file)")))
    }

    @Test(arguments: cases)
    func signatureMatchesPublishedValue(_ vector: Case) throws {
        let signingString = try VectorFiles.text("cavage-12/\(vector.file)")
        let published = try #require(expected[vector.id]?["signature"] as? String)
        let signature = try privateKey.sign(signingString.bytes)
        #expect(Data(signature).base64EncodedString() == published)
        #expect(publicKey.verify(signature: signature, for: signingString.bytes))
        #expect(!publicKey.verify(signature: signature, for: (signingString + " ").bytes))
    }

    @Test(arguments: cases)
    func publishedHeaderValuesParse(_ vector: Case) throws {
        let json = try #require(expected[vector.id])
        for key in ["signature_header_value", "authorization_header_value"] {
            let parameters = try CavageSignature.parse(try #require(json[key] as? String))
            #expect(parameters.keyId == "Test")
            #expect(parameters.algorithm == "rsa-sha256")
            #expect(parameters.headers == json["headers"] as? [String])
            #expect(parameters.signature == (try base64(try #require(json["signature"] as? String))))
        }
    }

    @Test func allHeadersCaseCarriesCreatedAndExpires() throws {
        let value = try #require(expected["C.3"]?["signature_header_value"] as? String)
        let parameters = try CavageSignature.parse(value)
        #expect(parameters.created == 1_402_170_695)
        #expect(parameters.expires == 1_402_170_699)
    }

    @Test func publicKeyFileIsTheSPKIOfThePrivateKey() throws {
        #expect(privateKey.publicKey.spkiPEM == (try VectorFiles.text("cavage-12/public.pem")))
        #expect(publicKey.bits == 1024)
    }

    @Test func vectorDigestIsTheBodySHA256() throws {
        let body = try #require(request.body)
        #expect(Data(Digest.sha256(body)).base64EncodedString() == "X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=")
    }

    /// C.1 signs only `date` and C.2 leaves the digest out; the signatures are genuine, but our
    /// policy requires the target, host, date and digest to be covered.
    @Test func defaultAndBasicCasesAreGenuineButInsufficient() throws {
        for (id, missing) in [("C.1", "(request-target)"), ("C.2", "digest")] {
            var signed = request
            signed.setHeader("Signature", try #require(expected[id]?["signature_header_value"] as? String))
            #expect(throws: SignatureError.componentsNotCovered(missing)) {
                try SignatureVerifier().prepare(signed, now: Self.signedAt)
            }
            let parameters = try CavageSignature.parse(try #require(signed.header("signature")))
            let text = try CavageSignature.signingString(for: request, headers: parameters.headers)
            #expect(publicKey.verify(signature: parameters.signature, for: text.bytes))
        }
    }

    @Test func publishedAllHeadersValueIsRefusedForRSAWithCreated() throws {
        var signed = request
        signed.setHeader("Signature", try #require(expected["C.3"]?["signature_header_value"] as? String))
        #expect(throws: SignatureError.malformedSignatureHeader("(created)/(expires) with rsa-sha256")) {
            try SignatureVerifier().prepare(signed, now: Self.signedAt)
        }
    }

    /// C.3's signature with the header list it really covers (as draft -10 printed it).
    private func fullCoverageRequest() throws -> SignableRequest {
        var signed = request
        let signature = try #require(expected["C.3"]?["signature"] as? String)
        signed.setHeader(
            "Signature",
            "keyId=\"Test\",algorithm=\"rsa-sha256\",headers=\"(request-target) host date content-type digest content-length\",signature=\"\(signature)\""
        )
        return signed
    }

    @Test func fullCoverageWithDigestPasses() throws {
        let pending = try SignatureVerifier().prepare(try fullCoverageRequest(), now: Self.signedAt.addingTimeInterval(60))
        #expect(pending.keyId == "Test")
        #expect(pending.scheme == .cavage)
        #expect(pending.signedText == (try VectorFiles.text("cavage-12/signing-string-c3.txt")))
        #expect(pending.verify(with: publicKey))
    }

    @Test func changedHeaderFailsVerification() throws {
        var signed = try fullCoverageRequest()
        signed.setHeader("Content-Type", "application/activity+json")
        #expect(!(try SignatureVerifier().prepare(signed, now: Self.signedAt)).verify(with: publicKey))
    }

    @Test func changedBodyFailsTheDigestCheck() throws {
        var signed = try fullCoverageRequest()
        signed.body = Array("{\"hello\": \"world!\"}".utf8)
        #expect(throws: SignatureError.digestMismatch) { try SignatureVerifier().prepare(signed, now: Self.signedAt) }
        // A forger who also replaces the Digest still fails, because the digest is signed.
        signed.setHeader("Digest", "SHA-256=" + Data(Digest.sha256(signed.body ?? [])).base64EncodedString())
        #expect(!(try SignatureVerifier().prepare(signed, now: Self.signedAt)).verify(with: publicKey))
    }

    @Test func vectorIsStaleToday() throws {
        #expect(throws: SignatureError.dateOutOfRange) { try SignatureVerifier().prepare(try fullCoverageRequest()) }
    }
}

import Foundation
import Signatures
import Testing

/// RFC 9421 Appendix B: signature bases rebuilt byte for byte, and the RSA-PSS and HMAC
/// signatures checked.
@Suite struct MessageSignatureVectorTests {
    /// A request-side case from expected.json.
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var message: String
        var signatureInput: String
        var signature: String
        var baseFile: String
        var testDescription: String { id }
    }

    static let cases: [Case] = {
        guard let json = try? VectorFiles.json("rfc9421/expected.json"), let cases = json["cases"] as? [[String: Any]]
        else { return [] }
        return cases.compactMap { json in
            guard let id = json["id"] as? String, id != "B.2.4", let message = json["message"] as? String,
                let input = json["signature_input_field"] as? String, let signature = json["signature_field"] as? String,
                let base = json["signature_base_file"] as? String
            else { return nil }
            return Case(id: id, message: message, signatureInput: input, signature: signature, baseFile: base)
        }
    }()

    @Test func requestCasesAreAllPresent() {
        #expect(Self.cases.map(\.id) == ["B.2.1", "B.2.2", "B.2.3", "B.2.5", "B.2.6", "B.3", "B.4"])
    }

    @Test(arguments: cases)
    func signatureBaseMatchesPublishedBase(_ vector: Case) throws {
        let request = try VectorFiles.request("rfc9421/\(vector.message)")
        let input = try #require(try MessageSignature.parseInputs(vector.signatureInput).first)
        let base = try MessageSignature.signatureBase(for: request, input: input)
        #expect(base == (try VectorFiles.text("rfc9421/\(vector.baseFile)")))
    }

    @Test func signatureInputParametersAreRead() throws {
        let input = try #require(
            try MessageSignature.parseInputs(
                #"sig-b22=("@authority" "content-digest" "@query-param";name="Pet");created=1618884473;keyid="test-key-rsa-pss";tag="header-example""#
            ).first)
        #expect(input.label == "sig-b22")
        #expect(input.components == ["@authority", "content-digest", #"@query-param;name="Pet""#])
        #expect(input.created == 1_618_884_473)
        #expect(input.keyId == "test-key-rsa-pss")
        #expect(input.tag == "header-example")
        #expect(input.alg == nil)
        #expect(input.rawParameters.hasPrefix(#"("@authority""#))
    }

    @Test(arguments: ["B.2.1", "B.2.2", "B.2.3"])
    func rsaPSSSignaturesVerify(_ id: String) throws {
        let vector = try #require(Self.cases.first { $0.id == id })
        let key = try RSAPublicKey(pem: VectorFiles.text("rfc9421/keys/test-key-rsa-pss.pub.pem"))
        let base = try VectorFiles.bytes("rfc9421/\(vector.baseFile)")
        let signature = try #require(try MessageSignature.parseSignatures(vector.signature).values.first)
        #expect(key.verifyPSS(signature: signature, for: base))
        #expect(!key.verifyPSS(signature: signature, for: base + [0x20]))
        #expect(!key.verify(signature: signature, for: base))
    }

    @Test func hmacSignatureIsReproduced() throws {
        let secret = try base64(VectorFiles.text("rfc9421/keys/test-shared-secret.b64").trimmingCharacters(in: .whitespacesAndNewlines))
        let base = try VectorFiles.bytes("rfc9421/bases/b-2-5.txt")
        let published = try MessageSignature.parseSignatures("sig-b25=:pxcQw6G3AjtMBQjwo8XzkZf/bws5LelbaMk5rGIGtE8=:")
        #expect(Digest.hmacSHA256(key: secret, data: base) == published["sig-b25"])
    }

    @Test func signaturesInMessagesMatchExpectedValues() throws {
        for (file, label) in [("b3-proxy-request-signed.http", "ttrp"), ("b4-original.http", "transform")] {
            let request = try VectorFiles.request("rfc9421/messages/\(file)")
            let signatures = try MessageSignature.parseSignatures(try #require(request.header("signature")))
            let vector = try #require(Self.cases.first { $0.signature.hasPrefix(label + "=") })
            #expect(signatures == (try MessageSignature.parseSignatures(vector.signature)))
            let inputs = try MessageSignature.parseInputs(try #require(request.header("signature-input")))
            #expect(inputs.first?.label == label)
        }
    }

    /// B.4: transformations that keep the covered components keep the base; the others change it.
    @Test(arguments: [
        ("b4-original.http", true), ("b4-added-header-and-query.http", true),
        ("b4-date-removed-referer-added-accept-combined.http", true), ("b4-fields-reordered.http", true),
        ("b4-method-and-authority-changed.http", false), ("b4-accept-order-swapped.http", false),
    ])
    func transformationsKeepOrBreakTheBase(_ file: String, _ valid: Bool) throws {
        let request = try VectorFiles.request("rfc9421/messages/\(file)")
        let header = try #require(request.header("signature-input"))
        let input = try #require(try MessageSignature.parseInputs(header).first)
        let base = try MessageSignature.signatureBase(for: request, input: input)
        #expect((base == (try VectorFiles.text("rfc9421/bases/b-4.txt"))) == valid)
    }

    @Test func responseComponentsAreRefusedOnRequests() throws {
        let request = try VectorFiles.request("rfc9421/messages/test-request.http")
        let input = try #require(try MessageSignature.parseInputs(#"sig-b24=("@status" "content-type");created=1618884473"#).first)
        #expect(throws: SignatureError.unsupportedComponent("@status")) {
            try MessageSignature.signatureBase(for: request, input: input)
        }
    }

    @Test func missingCoveredFieldIsReported() throws {
        let request = try VectorFiles.request("rfc9421/messages/b4-date-removed-referer-added-accept-combined.http")
        let input = try #require(try MessageSignature.parseInputs(#"sig=("date" "@method");created=1"#).first)
        #expect(throws: SignatureError.missingHeader("date")) { try MessageSignature.signatureBase(for: request, input: input) }
    }

    @Test func malformedFieldsAreRejected() {
        #expect(throws: SignatureError.self) { try MessageSignature.parseInputs(#"sig1="@method";created=1"#) }
        #expect(throws: SignatureError.self) { try MessageSignature.parseInputs(#"sig1=("@method";created=1"#) }
        #expect(throws: SignatureError.self) { try MessageSignature.parseInputs(#"sig1=("@method");created="soon""#) }
        #expect(throws: SignatureError.self) { try MessageSignature.parseSignatures("sig1=\"not bytes\"") }
        #expect(throws: SignatureError.self) { try MessageSignature.parseSignatures("sig1=:abc:,") }
    }
}

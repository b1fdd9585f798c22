import Foundation
import Signatures
import Testing

/// Key generation and the PEM forms actors publish.
@Suite struct RSAKeyTests {
    @Test func generatedKeyRoundTripsThroughPEM() throws {
        let key = try RSAPrivateKey.generate()
        #expect(key.publicKey.bits == 2048)
        #expect(key.pkcs8PEM.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(key.pkcs8PEM.hasSuffix("-----END PRIVATE KEY-----\n"))
        let reloaded = try RSAPrivateKey(pem: key.pkcs8PEM)
        #expect(reloaded.pkcs8PEM == key.pkcs8PEM)
        #expect(reloaded.publicKey.spkiPEM == key.publicKey.spkiPEM)
        let spki = key.publicKey.spkiPEM
        #expect(try RSAPublicKey(pem: spki).spkiPEM == spki)
    }

    @Test func spkiPEMHasSixtyFourCharacterLines() throws {
        let pem = try RSAPrivateKey.generate().publicKey.spkiPEM
        let lines = pem.split(separator: "\n")
        #expect(lines.first == "-----BEGIN PUBLIC KEY-----")
        #expect(lines.last == "-----END PUBLIC KEY-----")
        #expect(pem.hasSuffix("\n") && !pem.contains("\r"))
        #expect(lines.dropFirst().dropLast().dropLast().allSatisfy { $0.count == 64 })
        #expect(lines.dropFirst().dropLast().allSatisfy { $0.count <= 64 })
    }

    @Test func generatedKeysDifferAndSignaturesAreKeySpecific() throws {
        let alice = try RSAPrivateKey.generate(), bob = try RSAPrivateKey.generate()
        #expect(alice.publicKey.spkiPEM != bob.publicKey.spkiPEM)
        let message = Array("(request-target): post /inbox".utf8)
        let signature = try alice.sign(message)
        #expect(signature.count == 256)
        #expect(alice.publicKey.verify(signature: signature, for: message))
        #expect(!bob.publicKey.verify(signature: signature, for: message))
    }

    @Test func pkcs1PublicKeyIsAccepted() throws {
        let pkcs1 = try VectorFiles.text("rfc9421/keys/test-key-rsa.pub.pem")
        #expect(pkcs1.hasPrefix("-----BEGIN RSA PUBLIC KEY-----"))
        let publicKey = try RSAPublicKey(pem: pkcs1)
        let privateKey = try RSAPrivateKey(pem: VectorFiles.text("rfc9421/keys/test-key-rsa.pem"))
        #expect(publicKey.spkiPEM == privateKey.publicKey.spkiPEM)
        #expect(publicKey.verify(signature: try privateKey.sign([1, 2, 3]), for: [1, 2, 3]))
    }

    @Test func pkcs1PrivateKeyIsReexportedAsPKCS8() throws {
        let key = try RSAPrivateKey(pem: VectorFiles.text("cavage-12/private.pem"))
        #expect(key.pkcs8PEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(try RSAPrivateKey(pem: key.pkcs8PEM).publicKey.spkiPEM == key.publicKey.spkiPEM)
    }

    /// Actor documents arrive with CRLF, indentation, surrounding blanks or literal `\n` escapes.
    @Test func sloppyPublicKeyPEMIsTolerated() throws {
        let pem = try VectorFiles.text("cavage-12/public.pem")
        let variants = [
            "\n  " + pem + "  \n",
            pem.replacingOccurrences(of: "\n", with: "\r\n"),
            pem.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"),
            pem.replacingOccurrences(of: "\n", with: "\\n"),
        ]
        for variant in variants {
            #expect(try RSAPublicKey(pem: variant).spkiPEM == pem)
        }
    }

    @Test(arguments: [
        "", "hello", "-----BEGIN PUBLIC KEY-----\nnot base64!\n-----END PUBLIC KEY-----\n",
        "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n",
        "-----BEGIN PUBLIC KEY-----\nMIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDCFENGw33yGihy92pDjZQhl0C3\n",
    ])
    func garbagePublicKeyThrows(_ pem: String) {
        #expect(throws: SignatureError.invalidKey) { try RSAPublicKey(pem: pem) }
    }

    @Test(arguments: ["test-key-ecc-p256.pub.pem", "test-key-ed25519.pub.pem", "test-key-rsa.pem"])
    func nonRSAOrPrivatePEMIsNotAPublicKey(_ file: String) throws {
        let pem = try VectorFiles.text("rfc9421/keys/\(file)")
        #expect(throws: SignatureError.invalidKey) { try RSAPublicKey(pem: pem) }
    }

    /// The RSA-PSS-only key cannot make the PKCS#1 v1.5 signatures the fediverse expects.
    @Test(arguments: ["test-key-ecc-p256.pem", "test-key-ed25519.pem", "test-key-rsa-pss.pem", "test-key-rsa.pub.pem"])
    func nonRSAOrPublicPEMIsNotAPrivateKey(_ file: String) throws {
        let pem = try VectorFiles.text("rfc9421/keys/\(file)")
        #expect(throws: SignatureError.invalidKey) { try RSAPrivateKey(pem: pem) }
    }

    @Test func absurdKeySizesAreRefused() {
        #expect(throws: SignatureError.keyGenerationFailed) { try RSAPrivateKey.generate(bits: 256) }
    }
}

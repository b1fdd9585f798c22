import Foundation
import Signatures
import Testing

/// RFC 8291 (Web Push message encryption) and RFC 8292 (VAPID) on their own.
@Suite struct WebPushEncryptionTests {
    // RFC 8291 Appendix A: the keys, salt and result of its worked example.
    static let plaintext = "When I grow up, I want to be a watermelon"
    static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
    static let uaPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let asPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
    static let asPublic = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
    static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
    static let body = "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml"
        + "mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT"
        + "pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"

    private func bytes(_ text: String) throws -> [UInt8] { try #require(Base64URL.decode(text)) }

    @Test func reproducesTheRFC8291Example() throws {
        let sender = try P256Key(privateKey: bytes(Self.asPrivate), publicKey: bytes(Self.asPublic))
        let encrypted = try WebPushEncryption.encrypt(
            Array(Self.plaintext.utf8), subscriberKey: bytes(Self.uaPublic), authSecret: bytes(Self.authSecret),
            senderKey: sender, salt: bytes(Self.salt))
        #expect(Base64URL.encode(encrypted) == Self.body)
    }

    @Test func freshKeysGiveADifferentBodyWithTheSameHeaderLayout() throws {
        let encrypted = try WebPushEncryption.encrypt(
            Array(Self.plaintext.utf8), subscriberKey: bytes(Self.uaPublic), authSecret: bytes(Self.authSecret))
        #expect(encrypted.count == 16 + 4 + 1 + 65 + Self.plaintext.utf8.count + 1 + 16)
        #expect(Array(encrypted[16..<21]) == [0, 0, 0x10, 0, 65])
        #expect(Base64URL.encode(encrypted) != Self.body)
    }

    @Test func refusesMalformedSubscriptionKeys() throws {
        var offCurve = try bytes(Self.uaPublic)
        offCurve[40] ^= 0xFF
        #expect(throws: WebPushError.invalidKey) { try P256Key(publicKey: offCurve) }
        #expect(throws: WebPushError.invalidKey) { try P256Key(publicKey: Array(offCurve.prefix(33))) }
        #expect(throws: WebPushError.invalidAuthSecret) {
            try WebPushEncryption.encrypt([1], subscriberKey: bytes(Self.uaPublic), authSecret: [1, 2, 3])
        }
    }

    @Test func keyPairRoundTripsThroughRawBytes() throws {
        let key = try P256Key()
        #expect(key.publicKey.count == 65 && key.privateKey.count == 32)
        let again = try P256Key(privateKey: key.privateKey, publicKey: key.publicKey)
        #expect(again.publicKey == key.publicKey)
        let other = try P256Key()
        #expect(throws: WebPushError.invalidKey) { try P256Key(privateKey: key.privateKey, publicKey: other.publicKey) }
    }

    @Test func vapidTokenIsAnES256JWTForTheEndpointOrigin() throws {
        let key = try P256Key()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let header = try #require(try VAPIDToken.authorization(
            endpoint: "https://push.example.net:8443/wpush/v2/abc?x=1", subject: "mailto:admin@node.example", key: key, now: now))
        let parts = header.split(separator: ", ")
        #expect(parts.count == 2 && parts[1] == "k=\(Base64URL.encode(key.publicKey))")
        let jwt = parts[0].dropFirst("vapid t=".count).split(separator: ".").map(String.init)
        #expect(jwt.count == 3)
        let claims = try JSONSerialization.jsonObject(with: Data(bytes(jwt[1]))) as? [String: Any]
        #expect(claims?["aud"] as? String == "https://push.example.net:8443")
        #expect(claims?["exp"] as? Int == 1_800_000_000 + 12 * 3600)
        #expect(claims?["sub"] as? String == "mailto:admin@node.example")
        let signed = Array("\(jwt[0]).\(jwt[1])".utf8)
        #expect(key.verifyES256(signature: try bytes(jwt[2]), for: signed))
        #expect(!key.verifyES256(signature: try bytes(jwt[2]), for: signed + [0]))
    }
}

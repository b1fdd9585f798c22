import Foundation
import Signatures
import Testing

/// SHA-2 digests and HMAC against published values.
@Suite struct DigestTests {
    @Test func sha256OfABCMatchesFIPS180() {
        #expect(hex(Digest.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func sha256HexIsLowerCaseTwoDigitsPerByte() {
        #expect(Digest.sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Digest.hex([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        #expect(Digest.hex([]) == "")
    }

    @Test func sha256OfEmptyInput() {
        #expect(hex(Digest.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func sha512OfABCMatchesFIPS180() {
        #expect(
            hex(Digest.sha512(Array("abc".utf8)))
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        )
    }

    @Test func sha512OfTheRFC9421RequestBody() throws {
        let body = try #require(try VectorFiles.request("rfc9421/messages/test-request.http").body)
        #expect(
            Data(Digest.sha512(body)).base64EncodedString()
                == "WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==")
    }

    @Test func hmacSHA256MatchesRFC4231TestCase2() {
        let mac = Digest.hmacSHA256(key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8))
        #expect(hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func hmacSHA256WithEmptyKey() {
        #expect(hex(Digest.hmacSHA256(key: [], data: [])) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func randomBytesHaveTheLengthAskedForAndDiffer() {
        let first = randomBytes(32), second = randomBytes(32)
        #expect(first.count == 32)
        #expect(first != second)
        #expect(randomBytes(0).isEmpty)
    }
}

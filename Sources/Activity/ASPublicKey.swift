import Foundation

/// An actor's `publicKey` (security vocabulary): what HTTP signatures are checked against.
public struct ASPublicKey: Codable, Sendable, Equatable {
    /// The key id, usually `ACTOR#main-key`; the `keyId` of signatures.
    public var id: String
    /// The actor that owns the key; must equal the signing activity's actor.
    public var owner: String
    /// The key in PEM (SPKI `BEGIN PUBLIC KEY`, sometimes PKCS#1 `BEGIN RSA PUBLIC KEY`).
    public var publicKeyPem: String

    /// Makes a key.
    public init(id: String, owner: String, publicKeyPem: String) {
        self.id = id
        self.owner = owner
        self.publicKeyPem = publicKeyPem
    }

    /// True when the PEM holds an RSA key: PKCS#1 by its header, SPKI by the rsaEncryption
    /// algorithm OID 1.2.840.113549.1.1.1 in the DER (Ed25519 keys also use `BEGIN PUBLIC KEY`).
    public var isRSA: Bool {
        if publicKeyPem.contains("BEGIN RSA PUBLIC KEY") { return true }
        let body = publicKeyPem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let der = Data(base64Encoded: body, options: .ignoreUnknownCharacters) else { return false }
        let rsaOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
        return [UInt8](der).firstRange(of: rsaOID) != nil
    }

    /// Reads a key the tolerant way; `owner` falls back to `fallbackOwner` when absent.
    init?(json: [String: JSONValue], fallbackOwner: String?) {
        guard let id = json["id"]?.stringValue, let pem = json["publicKeyPem"]?.stringValue,
              let owner = json["owner"].flatMap(JSONValue.idOf) ?? fallbackOwner else { return nil }
        self.init(id: id, owner: owner, publicKeyPem: pem)
    }
}

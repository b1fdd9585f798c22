import Foundation
import Signatures
import Storage

/// The node's own `Application` actor at `BASE/actor`: it signs fetches (authorized fetch)
/// that no particular person makes, like Mastodon's instance actor.
package struct InstanceActor: Sendable {
    /// The actor id.
    package let id: String
    /// The signing key.
    package let signer: RequestSigner
    /// PEM of the public key, for the actor document.
    package let publicKeyPem: String
    /// The signer id under which the instance actor's deliveries are queued (no account has it).
    package static let deliveryAccountId: Int64 = 0

    /// Loads the instance key from the database, generating and storing it the first time.
    package static func load(database: NodeDatabase, base: String) throws(NodeError) -> InstanceActor {
        do {
            let pem = try database.writeBlocking { db -> String in
                try db.settings.holdForFirstStart()
                if let pem = try db.settings.value("instance_private_key") { return pem }
                let pem = try RSAPrivateKey.generate(bits: 2048).pkcs8PEM
                try db.settings.set("instance_private_key", to: pem)
                return pem
            }
            let key = try RSAPrivateKey(pem: pem)
            let id = "\(base)/actor"
            return InstanceActor(id: id, signer: RequestSigner(keyId: id + "#main-key", privateKey: key), publicKeyPem: key.publicKey.spkiPEM)
        } catch {
            throw .configuration("cannot load the instance actor key: \(error)")
        }
    }
}

import Signatures
import Storage

/// The node's VAPID key pair (RFC 8292): P-256, generated on first start and kept in the node
/// settings, so subscriptions made against its public key stay valid across restarts.
package enum VAPIDKeys {
    /// Settings key of the private scalar (base64url).
    package static let privateSetting = "vapid_private_key"
    /// Settings key of the public point (base64url).
    package static let publicSetting = "vapid_public_key"

    /// The stored key pair, or a new one stored now.
    /// - Throws: `NodeError.configuration` when the stored key is unreadable or none can be made.
    package static func load(database: NodeDatabase) throws(NodeError) -> P256Key {
        do {
            return try database.writeBlocking { db in
                try db.settings.holdForFirstStart()
                if let privateText = try db.settings.value(privateSetting), let publicText = try db.settings.value(publicSetting) {
                    guard let privateKey = Base64URL.decode(privateText), let publicKey = Base64URL.decode(publicText) else {
                        throw NodeError.configuration("the stored VAPID key is not base64url")
                    }
                    return try P256Key(privateKey: privateKey, publicKey: publicKey)
                }
                let key = try P256Key()
                try db.settings.set(privateSetting, to: Base64URL.encode(key.privateKey))
                try db.settings.set(publicSetting, to: Base64URL.encode(key.publicKey))
                return key
            }
        } catch let error as NodeError {
            throw error
        } catch {
            throw .configuration("cannot load the VAPID key: \(error)")
        }
    }
}

import Dispatch
import Foundation
import Signatures
import Synchronization

/// The RSA-2048 keys of the simulated remote actors. Generating a thousand keys takes about
/// half a minute on two cores, so they are made once and kept in the bench data directory.
public enum ActorKeys {
    /// `count` private keys, read from `directory/actor-keys-COUNT.pem` or generated there.
    /// - Throws: `BenchError.setup` when keys can be neither read nor generated.
    public static func load(count: Int, directory: String, log: (String) -> Void) throws(BenchError) -> [RSAPrivateKey] {
        let path = (directory as NSString).appendingPathComponent("actor-keys-\(count).pem")
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            let keys = parse(text)
            if keys.count == count { return keys }
        }
        log("generating \(count) RSA-2048 actor keys (once; cached in \(path))")
        let keys = try generate(count: count)
        let text = keys.map(\.pkcs8PEM).joined(separator: "\n")
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch { throw .setup("cannot store keys at \(path): \(error)") }
        return keys
    }

    private static func parse(_ text: String) -> [RSAPrivateKey] {
        let marker = "-----END PRIVATE KEY-----"
        return text.components(separatedBy: marker).dropLast().compactMap { try? RSAPrivateKey(pem: $0 + marker) }
    }

    private static func generate(count: Int) throws(BenchError) -> [RSAPrivateKey] {
        let slots = Mutex([RSAPrivateKey?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let key = try? RSAPrivateKey.generate(bits: 2048)
            slots.withLock { $0[index] = key }
        }
        let keys = slots.withLock { $0.compactMap { $0 } }
        guard keys.count == count else { throw .setup("RSA key generation failed") }
        return keys
    }
}

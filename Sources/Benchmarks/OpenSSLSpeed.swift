import Foundation

/// The delivery reference: RSA-2048 signatures per second on every core, from
/// `openssl speed -seconds S -multi CORES rsa2048`, run in the same session as the benchmark.
enum OpenSSLSpeed {
    /// The measurement and the exact command that made it.
    struct Figures: Sendable {
        var signPerSecond: Double
        var verifyPerSecond: Double
        var command: String
    }

    static func measure(seconds: Int, processes: Int, scratch: String) throws(BenchError) -> Figures {
        let arguments = ["openssl", "speed", "-seconds", "\(seconds)", "-multi", "\(processes)", "rsa2048"]
        let (code, output) = try Subprocess.output(of: arguments, scratch: scratch)
        guard code == 0 else { throw .setup("openssl speed exited with \(code): \(output.suffix(300))") }
        // The summary line: "rsa 2048 bits 0.000127s 0.000008s   7870.5 123456.7".
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("rsa") && $0.contains("2048") }),
            let verify = line.split(separator: " ").last.flatMap({ Double($0) }),
            let sign = line.split(separator: " ").dropLast().last.flatMap({ Double($0) })
        else { throw .setup("unexpected openssl speed output: \(output.suffix(300))") }
        return Figures(signPerSecond: sign, verifyPerSecond: verify, command: arguments.joined(separator: " "))
    }
}

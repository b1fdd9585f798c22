import CCurl
import Dispatch
import Foundation

/// Sends mail through the operator's SMTP server with libcurl's SMTP support: `smtp://` (with
/// STARTTLS whenever the server offers it, required when `requireTLS`) or `smtps://` (TLS from
/// the start); credentials in the URL (`smtp://user:password@host:587`). Each message is one
/// blocking libcurl transfer run on a Dispatch thread, never on the cooperative pool.
package final class SMTPMailer: Sendable {
    /// The server, e.g. `smtp://mail.example:587`.
    package let url: String
    /// The sender address (envelope and `From:`).
    package let from: String
    /// The node's domain, for Message-IDs.
    package let domain: String
    /// Whether a plain `smtp://` connection must upgrade with STARTTLS (refused otherwise).
    package let requireTLS: Bool
    /// How long one message may take.
    package let timeout: Duration

    /// A mailer for `url` sending as `from`.
    package init(url: String, from: String, domain: String, requireTLS: Bool, timeout: Duration = .seconds(30)) {
        self.url = url
        self.from = from
        self.domain = domain
        self.requireTLS = requireTLS
        self.timeout = timeout
    }

    /// Sends `message`.
    /// - Throws: `MailError.failed` with libcurl's reason when the server refuses or cannot be reached.
    package func send(_ message: MailMessage) async throws(MailError) {
        let payload = message.formatted(from: from, domain: domain)
        let result: Result<Void, MailError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: self.perform(payload, to: message.to))
            }
        }
        try result.get()
    }

    private func perform(_ payload: [UInt8], to recipient: String) -> Result<Void, MailError> {
        guard let handle = curl_easy_init() else { return .failure(.failed("libcurl unavailable")) }
        defer { curl_easy_cleanup(handle) }
        let recipients = curl_slist_append(nil, "<\(MailMessage.headerValue(recipient))>")
        defer { curl_slist_free_all(recipients) }
        let source = PayloadSource(payload)
        let box = Unmanaged.passRetained(source)
        defer { box.release() }
        _ = fednode_easy_setopt_string(handle, CURLOPT_URL, url)
        _ = fednode_easy_setopt_string(handle, CURLOPT_MAIL_FROM, "<\(MailMessage.headerValue(from))>")
        _ = fednode_easy_setopt_slist(handle, CURLOPT_MAIL_RCPT, recipients)
        _ = fednode_easy_setopt_long(handle, CURLOPT_USE_SSL, Int(requireTLS ? CURLUSESSL_ALL.rawValue : CURLUSESSL_TRY.rawValue))
        _ = fednode_easy_setopt_long(handle, CURLOPT_UPLOAD, 1)
        _ = fednode_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = fednode_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(timeout.components.seconds * 1000))
        _ = fednode_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, 10_000)
        _ = fednode_easy_setopt_write_callback(handle, CURLOPT_READFUNCTION, { buffer, size, count, userdata in
            guard let buffer, let userdata else { return 0 }
            return Unmanaged<PayloadSource>.fromOpaque(userdata).takeUnretainedValue().read(into: buffer, capacity: size * count)
        })
        _ = fednode_easy_setopt_pointer(handle, CURLOPT_READDATA, box.toOpaque())
        let code = curl_easy_perform(handle)
        guard code == CURLE_OK else { return .failure(.failed(String(cString: curl_easy_strerror(code)))) }
        return .success(())
    }
}

/// The bytes of one message, handed to libcurl's read callback in pieces.
private final class PayloadSource {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        let count = min(capacity, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBufferPointer { source in
            UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}

/// Why mail could not be sent.
package enum MailError: Error, Sendable, Equatable {
    /// No SMTP server is configured (`--smtp-url`).
    case notConfigured
    /// The server refused the message or could not be reached.
    case failed(String)
}

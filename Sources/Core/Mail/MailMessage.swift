import Foundation

/// One plain-text email, formatted for SMTP (RFC 5322 headers, UTF-8 body in base64 so any
/// text survives 7-bit relays).
package struct MailMessage: Sendable, Equatable {
    /// The recipient's address.
    package var to: String
    /// The subject line.
    package var subject: String
    /// The body, plain text.
    package var text: String

    /// The message as sent: CRLF line ends, header values stripped of line breaks (no header
    /// injection through a subject or address), non-ASCII subjects encoded as RFC 2047 words.
    package func formatted(from: String, domain: String, date: Date = Date(), id: String = UUID().uuidString) -> [UInt8] {
        let body = Data(text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n").utf8)
            .base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        let headers = [
            "From: \(Self.headerValue(from))",
            "To: \(Self.headerValue(to))",
            "Subject: \(Self.encodedWord(Self.headerValue(subject)))",
            "Date: \(Self.rfc5322Date(date))",
            "Message-ID: <\(id.lowercased())@\(Self.headerValue(domain))>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: base64",
        ]
        return Array((headers.joined(separator: "\r\n") + "\r\n\r\n" + body + "\r\n").utf8)
    }

    /// A header value on one line.
    package static func headerValue(_ value: String) -> String {
        String(value.map { $0 == "\r" || $0 == "\n" ? " " : $0 })
    }

    /// `value` as is when ASCII, else one RFC 2047 base64 encoded word.
    package static func encodedWord(_ value: String) -> String {
        guard !value.allSatisfy(\.isASCII) else { return value }
        return "=?UTF-8?B?\(Data(value.utf8).base64EncodedString())?="
    }

    /// An RFC 5322 3.3 date in UTC.
    package static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}

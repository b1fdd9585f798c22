@testable import Core
import Foundation
import Storage
import Testing
import TestSupport
@testable import FedNode

/// Password reset and sign-up confirmation by email, against a real SMTP server on loopback
/// (Python's aiosmtpd from the test venv, `interop/python/smtp_sink.py`), reading the mail it got.
@Suite("Account email flows", .serialized, .enabled(if: PythonInterop.available))
struct AccountMailTests {
    /// The SMTP server and the directory its messages land in.
    final class SMTPSink: Sendable {
        let port: Int
        let directory: URL
        let process: ChildProcess

        init() throws {
            port = try FreePort.find()
            directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("fednode-smtp-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            process = try PythonInterop.start("smtp_sink.py", [String(port), directory.path], log: directory.appendingPathComponent("sink.log"))
        }

        var url: String { "smtp://127.0.0.1:\(port)" }

        /// Waits until the server accepts connections.
        func waitUntilListening() async throws {
            try await eventually("the SMTP sink listens") {
                (try? String(contentsOf: directory.appendingPathComponent("sink.log"), encoding: .utf8))?.contains("ready") == true
            }
        }

        /// The messages received so far, oldest first.
        func messages() -> [String] {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".eml") }.sorted()
            return names.compactMap { try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) }
        }

        func stop() {
            // SIGKILL: it cannot be blocked, so stopping never waits on the sink's signal mask.
            process.signal(SIGKILL)
            process.waitForExit()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// The decoded text body of a raw message (base64 after the blank line).
    static func body(of message: String) -> String {
        guard let range = message.range(of: "\r\n\r\n") else { return "" }
        let encoded = message[range.upperBound...].replacingOccurrences(of: "\r\n", with: "")
        return Data(base64Encoded: encoded).flatMap { String(data: $0, encoding: .utf8) } ?? ""
    }

    /// The value of `parameter` in the first link of `text`.
    static func linkParameter(_ parameter: String, in text: String) -> String? {
        guard let start = text.range(of: "\(parameter)=") else { return nil }
        return String(text[start.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    static func form(_ node: NetworkNode, _ method: String, _ path: String, _ fields: [(String, String)] = [], token: String? = nil) async throws -> HTTPClientResponse {
        let body = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        var headers = [("Content-Type", "application/x-www-form-urlencoded")]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        return try await node.node.httpClient.execute(HTTPClientRequest(
            method: method, url: "http://\(node.domain)\(path)", headers: headers, body: method == "GET" ? nil : Array(body.utf8)))
    }

    static func json(_ response: HTTPClientResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    @Test("a forgotten password is reset by an emailed link; old sessions end; the link works once")
    func passwordReset() async throws {
        let sink = try SMTPSink()
        defer { sink.stop() }
        try await sink.waitUntilListening()
        let a = try NetworkNode(name: "mail-reset") { $0.mail = MailSettings(url: sink.url, from: "fednode@mail.test") }
        defer { a.remove() }
        try await a.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@mail.test", password: "old password")
        let session = try await a.node.database.write { db in
            try a.node.apiAuth.issueToken(appId: nil, accountId: alice.id, scopes: Scopes("read"), in: db).token
        }

        #expect(try await Self.form(a, "GET", "/auth/password/new").status == 200)
        let known = try await Self.form(a, "POST", "/auth/password", [("email", "ALICE@mail.test")])
        let unknown = try await Self.form(a, "POST", "/auth/password", [("email", "nobody@mail.test")])
        #expect(known.status == 200 && unknown.status == 200)
        #expect(known.body == unknown.body, "the answer does not reveal whether the address has an account")
        try await eventually("the reset mail arrived") { sink.messages().count == 1 }
        try await Task.sleep(for: .milliseconds(300))
        #expect(sink.messages().count == 1, "no mail for an unknown address")
        let mail = try #require(sink.messages().first)
        #expect(mail.contains("To: alice@mail.test") && mail.contains("X-Envelope-To: alice@mail.test"))
        #expect(mail.contains("Subject: Reset your password on"))
        let text = Self.body(of: mail)
        #expect(text.contains("@alice") && text.contains("http://\(a.domain)/auth/password/edit?reset_password_token="))
        let secret = try #require(Self.linkParameter("reset_password_token", in: text))

        let page = try await Self.form(a, "GET", "/auth/password/edit?reset_password_token=\(secret)")
        #expect(page.status == 200 && String(decoding: page.body, as: UTF8.self).contains("@alice"))
        let weak = try await Self.form(a, "POST", "/auth/password/edit", [("reset_password_token", secret), ("password", "short"), ("password_confirmation", "short")])
        #expect(weak.status == 422)
        let differ = try await Self.form(a, "POST", "/auth/password/edit",
                                         [("reset_password_token", secret), ("password", "new password 1"), ("password_confirmation", "new password 2")])
        #expect(differ.status == 422)
        let done = try await Self.form(a, "POST", "/auth/password/edit",
                                       [("reset_password_token", secret), ("password", "new password 1"), ("password_confirmation", "new password 1")])
        #expect(done.status == 200)
        #expect(try a.node.accounts.authenticate(email: "alice@mail.test", password: "new password 1")?.id == alice.id)
        #expect(try a.node.accounts.authenticate(email: "alice@mail.test", password: "old password") == nil)
        #expect(try await Self.form(a, "GET", "/api/v1/accounts/verify_credentials", token: session).status == 401, "sessions ended")
        let again = try await Self.form(a, "POST", "/auth/password/edit",
                                        [("reset_password_token", secret), ("password", "third password"), ("password_confirmation", "third password")])
        #expect(again.status == 400, "a link works once")
        #expect(try await Self.form(a, "GET", "/auth/password/edit?reset_password_token=forged").status == 400)
        await a.stop()
    }

    @Test("with confirmation required, a new account's token answers 403 until the emailed link is opened")
    func signUpConfirmation() async throws {
        let sink = try SMTPSink()
        defer { sink.stop() }
        try await sink.waitUntilListening()
        let a = try NetworkNode(name: "mail-confirm") {
            $0.mail = MailSettings(url: sink.url, from: "fednode@mail.test")
            $0.requireEmailConfirmation = true
        }
        defer { a.remove() }
        try await a.start()
        let app = Self.json(try await Self.form(a, "POST", "/api/v1/apps", [("client_name", "test"), ("redirect_uris", "urn:ietf:wg:oauth:2.0:oob"), ("scopes", "read write")]))
        let appToken = try #require(Self.json(try await Self.form(a, "POST", "/oauth/token", [
            ("grant_type", "client_credentials"), ("client_id", app["client_id"] as? String ?? ""),
            ("client_secret", app["client_secret"] as? String ?? ""), ("scope", "read write"),
        ]))["access_token"] as? String)
        let signUp = try await Self.form(a, "POST", "/api/v1/accounts", [
            ("username", "dana"), ("email", "dana@mail.test"), ("password", "dana password"), ("agreement", "true"), ("locale", "en"),
        ], token: appToken)
        #expect(signUp.status == 200)
        let token = try #require(Self.json(signUp)["access_token"] as? String)
        let refused = try await Self.form(a, "GET", "/api/v1/accounts/verify_credentials", token: token)
        #expect(refused.status == 403)
        #expect(Self.json(refused)["error"] as? String == "Your login is missing a confirmed e-mail address")

        try await eventually("the confirmation mail arrived") { sink.messages().count == 1 }
        #expect(try await Self.form(a, "POST", "/api/v1/emails/confirmations", token: token).status == 200, "another link on request")
        try await eventually("the second confirmation mail arrived") { sink.messages().count == 2 }
        let first = try #require(Self.linkParameter("confirmation_token", in: Self.body(of: sink.messages()[0])))
        let second = try #require(Self.linkParameter("confirmation_token", in: Self.body(of: sink.messages()[1])))
        #expect(try await Self.form(a, "GET", "/auth/confirmation?confirmation_token=\(first)").status == 400, "only the newest link works")
        #expect(try await Self.form(a, "GET", "/auth/confirmation?confirmation_token=\(second)").status == 200)
        #expect(try await Self.form(a, "GET", "/api/v1/accounts/verify_credentials", token: token).status == 200)
        #expect(try await Self.form(a, "POST", "/api/v1/emails/confirmations", token: token).status == 403, "nothing left to confirm")
        await a.stop()
    }

    @Test("without an SMTP server the mail features say so, and confirmation cannot be required")
    func withoutMail() async throws {
        let a = try NetworkNode(name: "mail-none")
        defer { a.remove() }
        try await a.start()
        let page = try await Self.form(a, "GET", "/auth/password/new")
        #expect(page.status == 503 && String(decoding: page.body, as: UTF8.self).contains("cannot send email"))
        #expect(try await Self.form(a, "POST", "/auth/password", [("email", "x@mail.test")]).status == 503)
        await a.stop()
        #expect(throws: NodeError.self) { try NetworkNode(name: "mail-required") { $0.requireEmailConfirmation = true } }
    }
}

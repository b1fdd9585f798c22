@testable import Core
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// The settings page's email change and account deletion, and the new-post form's photo
/// positions and focal points, through the router without JavaScript.
@Suite("Web account pages and the new-post form")
struct WebAccountPagesTests {
    typealias Jar = WebSessionTests.Jar

    @Test("deleting the account needs the CSRF token and the password; then the account is gone and the browser signed out")
    func deleteAccount() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        let alice = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse battery")
        try await test.withClient { client in
            var jar = try await WebSessionTests.signIn(client, email: "alice@example.com", password: "correct horse battery")
            let settings = try await WebSessionTests.get(client, "/settings/account", jar: &jar)
            #expect(settings.text.contains("Delete my account") && settings.text.contains("alice@example.com"))
            let csrf = jar.cookies[CSRF.cookieName] ?? ""

            let forged = try await WebSessionTests.post(client, "/settings/delete", [("delete_password", "correct horse battery")], jar: jar)
            #expect(forged.status == .forbidden)
            let wrong = try await WebSessionTests.post(client, "/settings/delete", [("delete_password", "nope"), ("csrf", csrf)], jar: jar)
            #expect(wrong.status == .forbidden && wrong.text.contains("That password is not right."))
            #expect(wrong.headers[.contentType]?.hasPrefix("text/html") == true)
            let empty = try await WebSessionTests.post(client, "/settings/delete", [("delete_password", ""), ("csrf", csrf)], jar: jar)
            #expect(empty.status == .badRequest && empty.text.contains("Enter your password"))
            #expect(try await test.node.database.read { try $0.accounts.find(id: alice.id) } != nil, "refused forms delete nothing")

            let deleted = try await WebSessionTests.post(client, "/settings/delete", [("delete_password", "correct horse battery"), ("csrf", csrf)], jar: jar)
            #expect(deleted.status == .seeOther && deleted.headers[.location] == "/login?deleted=1")
            jar.take(deleted)
            #expect(jar.cookies[WebSession.cookieName] == nil, "the session cookie is cleared")
            #expect(try await test.node.database.read { try $0.accounts.find(id: alice.id) } == nil)
            let login = try await WebSessionTests.get(client, "/login?deleted=1", jar: &jar)
            #expect(login.text.contains("Your account was deleted."))
            let again = try await WebSessionTests.signIn(client, email: "alice@example.com", password: "correct horse battery")
            var probe = again
            #expect(try await WebSessionTests.get(client, "/home", jar: &probe).status == .seeOther, "the account cannot sign in any more")
        }
    }

    @Test("changing the email needs the password; without an SMTP server the page says so and the form answers 503")
    func changeEmailWithoutMail() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        _ = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse battery")
        try await test.withClient { client in
            var jar = try await WebSessionTests.signIn(client, email: "alice@example.com", password: "correct horse battery")
            let settings = try await WebSessionTests.get(client, "/settings/account", jar: &jar)
            #expect(settings.text.contains("cannot send email"))
            let csrf = jar.cookies[CSRF.cookieName] ?? ""
            let forged = try await WebSessionTests.post(client, "/settings/email", [("email", "new@example.com"), ("email_password", "correct horse battery")], jar: jar)
            #expect(forged.status == .forbidden)
            let refused = try await WebSessionTests.post(client, "/settings/email", [("email", "new@example.com"), ("email_password", "correct horse battery"), ("csrf", csrf)], jar: jar)
            #expect(refused.status == .serviceUnavailable && refused.text.contains("cannot send email"))
            let credential = try await test.node.database.read { try $0.accounts.credential(email: "alice@example.com") }
            #expect(credential != nil, "the address is unchanged")
        }
    }

    @Test("photos are posted in the order of their positions, with their focal points; bad values get a 422 page and post nothing")
    func composeOrderAndFocus() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        let alice = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse battery")
        let (wide, tall) = (try RealImages.jpeg(width: 64, height: 32), try RealImages.jpeg(width: 32, height: 64))
        try await test.withClient { client in
            var jar = try await WebSessionTests.signIn(client, email: "alice@example.com", password: "correct horse battery")
            _ = try await WebSessionTests.get(client, "/new", jar: &jar)
            let csrf = jar.cookies[CSRF.cookieName] ?? ""
            func send(_ fields: [(String, String)]) async throws -> TestResponse {
                var body = MultipartBody()
                body.field("csrf", csrf)
                body.file("photo1", filename: "wide.jpg", contentType: "image/jpeg", bytes: wide)
                body.file("photo2", filename: "tall.jpg", contentType: "image/jpeg", bytes: tall)
                for (name, value) in fields { body.field(name, value) }
                let (bytes, type) = body.finished()
                var headers = jar.header
                headers[.contentType] = type
                return try await client.execute(uri: "/new", method: .post, headers: headers, body: bytes)
            }
            for (fields, message) in [([("order1", "0")], "position of photo 1"), ([("order2", "two")], "position of photo 2"),
                                      ([("focus2", "2,0")], "focal point of photo 2"), ([("focus1", "0.5")], "focal point of photo 1")] {
                let refused = try await send(fields + [("caption", "Refused")])
                #expect(refused.status == .unprocessableContent && refused.text.contains(message), "\(fields)")
            }
            #expect(try await test.node.database.read { try $0.posts.count(by: alice.id) } == 0, "nothing was posted")

            let posted = try await send([("alt1", "Wide"), ("alt2", "Tall"), ("order1", "2"), ("order2", "1"), ("focus2", "0.5,-0.25"),
                                         ("caption", "Two shapes")])
            #expect(posted.status == .seeOther)
            let postId = try #require(posted.headers[.location].flatMap { Int64($0.split(separator: "/").last ?? "") })
            let media = try await test.node.database.read { try $0.media.attachments(of: postId) }
            #expect(media.map(\.description) == ["Tall", "Wide"], "photo 2 was given position 1")
            #expect(media.map(\.width) == [32, 64], "the files moved with their alt texts")
            #expect(media.first?.focusX == 0.5 && media.first?.focusY == -0.25)
            #expect(media.last?.focusX == nil)
        }
    }
}

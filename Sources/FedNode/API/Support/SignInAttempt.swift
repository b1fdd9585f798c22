import Core
import Hummingbird

/// One try at signing in with a password: what was typed, where it came from, and the browser's
/// device token if it sent one (`DeviceTrust`).
struct SignInAttempt: Sendable {
    /// The email typed.
    var email: String
    /// The password typed.
    var password: String
    /// The client's address (`ClientAddress`), kept with the failures for moderators.
    var address: String
    /// The browser's device token, if any; `nil` for apps (the password grant).
    var deviceToken: String?

    /// An attempt with the given fields.
    init(email: String, password: String, address: String, deviceToken: String?) {
        self.email = email
        self.password = password
        self.address = address
        self.deviceToken = deviceToken
    }

    /// The attempt of a browser's form: its client address and device cookie.
    init(email: String, password: String, browser request: Request, context: NodeRequestContext, node: Node) {
        self.init(email: email, password: password,
                  address: ClientAddress.of(request, context: context, trusting: node.configuration.trustedProxies),
                  deviceToken: DeviceTrust.token(in: request))
    }
}

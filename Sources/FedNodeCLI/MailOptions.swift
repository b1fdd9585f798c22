import ArgumentParser
import Core
import FedNode
import Foundation

/// Outbound mail settings of `fednode serve`.
struct MailOptions: ParsableArguments {
    @Option(name: .customLong("smtp-url"), help: "SMTP server for outbound mail: smtp://[user:password@]host[:port] (STARTTLS when offered) or smtps://... (env FEDNODE_SMTP_URL; default none: password reset and email confirmation say the server cannot send email).")
    var smtpURL: String?
    @Option(name: .customLong("smtp-from"), help: "Sender address of outbound mail (env FEDNODE_SMTP_FROM; default notifications@DOMAIN's host).")
    var smtpFrom: String?
    @Flag(name: .customLong("smtp-require-tls"), help: "Refuse to send over smtp:// unless the server upgrades with STARTTLS (env FEDNODE_SMTP_REQUIRE_TLS=1).")
    var smtpRequireTLS = false
    @Flag(name: .customLong("require-email-confirmation"), help: "People who sign up confirm their email by an emailed link before using their account; needs --smtp-url (env FEDNODE_REQUIRE_EMAIL_CONFIRMATION=1).")
    var requireEmailConfirmation = false

    /// Applies the options (then the environment) to `configuration`.
    /// - Throws: `ValidationError` for an unusable URL or a confirmation requirement without mail.
    func apply(to configuration: inout NodeConfiguration, environment: [String: String]) throws {
        let truthy: (String?) -> Bool = { ["1", "true", "yes", "on"].contains(($0 ?? "").lowercased()) }
        if let url = smtpURL ?? environment["FEDNODE_SMTP_URL"], !url.isEmpty {
            guard url.hasPrefix("smtp://") || url.hasPrefix("smtps://") else {
                throw ValidationError("--smtp-url must start with smtp:// or smtps://")
            }
            let host = configuration.domain.split(separator: ":").first.map(String.init) ?? configuration.domain
            let from = smtpFrom ?? environment["FEDNODE_SMTP_FROM"] ?? "notifications@\(host)"
            guard from.contains("@"), !from.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "<" || $0 == ">" }) else {
                throw ValidationError("--smtp-from must be an email address")
            }
            configuration.mail = MailSettings(url: url, from: from, requireTLS: smtpRequireTLS || truthy(environment["FEDNODE_SMTP_REQUIRE_TLS"]))
        }
        configuration.requireEmailConfirmation = requireEmailConfirmation || truthy(environment["FEDNODE_REQUIRE_EMAIL_CONFIRMATION"])
        if configuration.requireEmailConfirmation, configuration.mail == nil {
            throw ValidationError("--require-email-confirmation needs --smtp-url")
        }
    }
}

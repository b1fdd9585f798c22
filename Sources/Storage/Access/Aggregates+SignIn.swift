import GRDB

// The aggregates of sign-in protection: declared here, beside `Aggregates.swift`, each with its
// queries in the file named after it.

extension Transaction {
    /// Failed sign-ins per typed email and the lock they earned.
    public var signInFailures: SignInFailures { SignInFailures(db: session) }
    /// Browsers an account signed in from before (device cookies, stored hashed).
    public var trustedDevices: TrustedDevices { TrustedDevices(db: session) }
}

/// Failed sign-ins per typed email and the lock they earned.
public struct SignInFailures { let db: SQLSession }
/// Browsers an account signed in from before (device cookies, stored hashed).
public struct TrustedDevices { let db: SQLSession }

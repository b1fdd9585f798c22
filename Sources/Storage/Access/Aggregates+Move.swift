import GRDB

// The aggregates of per-person domain hiding and account migration: declared here, beside
// `Aggregates.swift`, each with its queries in the file named after it.

extension Transaction {
    /// Domains each person hides (`/api/v1/domain_blocks`).
    public var accountDomainBlocks: AccountDomainBlocks { AccountDomainBlocks(db: session) }
    /// Account aliases (`alsoKnownAs`) and moves (`movedTo`).
    public var accountMoves: AccountMoves { AccountMoves(db: session) }
}

/// Domains each person hides (`/api/v1/domain_blocks`).
public struct AccountDomainBlocks { let db: SQLSession }
/// Account aliases (`alsoKnownAs`) and moves (`movedTo`).
public struct AccountMoves { let db: SQLSession }

import GRDB

// The aggregates of per-person domain hiding, account migration and private notes: declared here, beside
// `Aggregates.swift`, each with its queries in the file named after it.

extension Transaction {
    /// Domains each person hides (`/api/v1/domain_blocks`).
    public var accountDomainBlocks: AccountDomainBlocks { AccountDomainBlocks(db: session) }
    /// Account aliases (`alsoKnownAs`) and moves (`movedTo`).
    public var accountMoves: AccountMoves { AccountMoves(db: session) }
    /// Private notes about other accounts.
    public var accountNotes: AccountNotes { AccountNotes(db: session) }
}

/// Domains each person hides (`/api/v1/domain_blocks`).
public struct AccountDomainBlocks { let db: SQLSession }
/// Account aliases (`alsoKnownAs`) and moves (`movedTo`).
public struct AccountMoves { let db: SQLSession }
/// Private notes about other accounts.
public struct AccountNotes { let db: SQLSession }

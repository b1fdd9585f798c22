extension Migrations {
    /// Search and `authorize_interaction` look accounts and posts up by their web address as
    /// well as their id: without an index each such lookup read the whole table.
    static let urlLookupSchema = [
        "CREATE INDEX accounts_by_url ON accounts(url)",
        "CREATE INDEX posts_by_url ON posts(url)",
    ]
}

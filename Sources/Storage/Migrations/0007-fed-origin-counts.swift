extension Migrations {
    /// What a remote post's origin reports for its `replies`, `shares` and `likes` collections
    /// (their `totalItems`), read when the post is opened. Kept apart from `post_stats`, which
    /// triggers keep equal to the rows stored here: a rebuild of those counters never loses the
    /// origin's figures, and the figure shown is the larger of the two.
    static let originCountsSchema = [
        """
        CREATE TABLE post_origin_counts (
          post_id INTEGER PRIMARY KEY NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
          replies_count INTEGER,
          reblogs_count INTEGER,
          favourites_count INTEGER,
          fetched_at DATETIME NOT NULL
        )
        """,
    ]
}

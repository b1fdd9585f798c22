import GRDB

extension Posts {
    /// The post with this id.
    public func find(id: Int64) throws -> Post? { try Post.fetchOne(db, key: id) }

    /// The post whose object id is `uri`.
    public func find(uri: String) throws -> Post? { try Post.filter(Column("uri") == uri).fetchOne(db) }

    /// The posts with these ids, in no particular order.
    public func find(ids: some Collection<Int64>) throws -> [Post] { try Post.fetchAll(db, keys: ids) }

    /// Stores a new post.
    public func insert(_ post: Post) throws { try post.insert(db) }

    /// Stores every column of an existing post.
    public func update(_ post: Post) throws { try post.update(db) }
}

import GRDB

extension Timelines {
    /// One page of the timeline of `list` (owned by `viewer`): posts and boosts by its members
    /// that the viewer may see, direct posts left out, replies kept by the list's replies
    /// policy, newest first.
    public func list(_ list: UserList, viewer: Int64, page: PageBounds) throws -> [Post] {
        let condition = """
            l.id = ? AND p.account_id IN (SELECT account_id FROM list_accounts WHERE list_id = l.id)
            AND p.visibility <> 'direct' AND \(Lists.repliesPolicyCondition)
            """
        return try visiblePage(from: "posts p JOIN lists l", where: condition, arguments: [list.id], pageColumn: "p.id",
                               viewer: viewer, page: page)
    }
}

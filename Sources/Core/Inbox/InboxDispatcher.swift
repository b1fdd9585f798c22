import Activity

/// Routes each inbound activity to the one handler for its type.
package enum InboxDispatcher {
    /// The handler for `type`; unknown types are recorded and ignored.
    package static func handler(for type: String?) -> (any InboxHandler)? {
        switch type {
        case "Follow": FollowHandler()
        case "Accept": AcceptHandler()
        case "Reject": RejectHandler()
        case "Undo": UndoHandler()
        case "Create": CreateHandler()
        case "Update": UpdateHandler()
        case "Delete": DeleteHandler()
        case "Like": LikeHandler()
        case "Announce": AnnounceHandler()
        case "Block": BlockHandler()
        case "Flag": FlagHandler()
        case "Add": AddHandler()
        case "Remove": RemoveHandler()
        case "Move": MoveHandler()
        default: nil
        }
    }
}

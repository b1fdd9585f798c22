import Hummingbird

/// Registers the Mastodon client API (`/api/v1`, `/api/v2`, `/oauth`) and its helpers.
/// One line per controller, so each feature area owns its own file.
func addClientAPIRoutes(to router: Router<NodeRequestContext>, node: Node) {
    StatusesController(node: node).addRoutes(to: router)
    StatusActionsController(node: node).addRoutes(to: router)
    MediaController(node: node).addRoutes(to: router)
    MediaFileController(node: node).addRoutes(to: router)
    TimelinesController(node: node).addRoutes(to: router)
}

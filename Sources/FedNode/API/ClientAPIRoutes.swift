import Hummingbird

/// Registers the Mastodon client API (`/api/v1`, `/api/v2`, `/oauth`) and its helpers.
/// One line per controller, so each feature area owns its own file.
func addClientAPIRoutes(to router: Router<NodeRequestContext>, node: Node) {
    NotificationsController(node: node).addRoutes(to: router)
}

import Core
import Hummingbird

/// Registers the web app's pages (the profile and landing pages are reached through
/// `ActorController` and `LandingController`, which share their URLs with ActivityPub).
/// - Parameters:
///   - router: The node's router.
///   - node: The node.
func addWebRoutes(to router: Router<NodeRequestContext>, node: Node) {
    WebAssetsController().addRoutes(to: router)
    WebAuthController(node: node).addRoutes(to: router)
    WebSignInLinkController(node: node).addRoutes(to: router)
    WebFeedController(node: node).addRoutes(to: router)
    WebPostController(node: node).addRoutes(to: router)
    WebComposeController(node: node).addRoutes(to: router)
    WebProfileController(node: node).addRoutes(to: router)
    WebSettingsController(node: node).addRoutes(to: router)
    WebSearchController(node: node).addRoutes(to: router)
    WebRemoteFollowController(node: node).addRoutes(to: router)
    WebAccountSettingsController(node: node).addRoutes(to: router)
    WebAccountLifecycleController(node: node).addRoutes(to: router)
    WebReportController(node: node).addRoutes(to: router)
}

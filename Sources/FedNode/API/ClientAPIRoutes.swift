import Hummingbird

/// Registers the Mastodon client API (`/api/v1`, `/api/v2`, `/oauth`) and its helpers.
/// One line per controller, so each feature area owns its own file.
func addClientAPIRoutes(to router: Router<NodeRequestContext>, node: Node) {
    AppsController(node: node).addRoutes(to: router)
    OAuthAuthorizeController(node: node).addRoutes(to: router)
    OAuthTokenController(node: node).addRoutes(to: router)
    SignUpController(node: node).addRoutes(to: router)
    InstanceController(node: node).addRoutes(to: router)
    PreferencesController(node: node).addRoutes(to: router)
    StaticAssetsController(node: node).addRoutes(to: router)
    CredentialsController(node: node).addRoutes(to: router)
    AccountsController(node: node).addRoutes(to: router)
    RelationshipsController(node: node).addRoutes(to: router)
    FollowRequestsController(node: node).addRoutes(to: router)
    SearchController(node: node).addRoutes(to: router)
    TagsController(node: node).addRoutes(to: router)
    DirectoryController(node: node).addRoutes(to: router)
    SuggestionsController(node: node).addRoutes(to: router)
    TrendsController(node: node).addRoutes(to: router)
    StatusesController(node: node).addRoutes(to: router)
    StatusActionsController(node: node).addRoutes(to: router)
    MediaController(node: node).addRoutes(to: router)
    MediaFileController(node: node).addRoutes(to: router)
    TimelinesController(node: node).addRoutes(to: router)
    NotificationsController(node: node).addRoutes(to: router)
    EmailsController(node: node).addRoutes(to: router)
    AccountMailController(node: node).addRoutes(to: router)
}

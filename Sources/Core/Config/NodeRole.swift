/// What one `fednode serve` process does for its node. Several processes on one PostgreSQL
/// database act as one node; an operator may split HTTP serving from background work.
public enum NodeRole: String, Sendable, CaseIterable {
    /// HTTP (federation, client API, web app, streaming) and the background work.
    case all
    /// HTTP only: activities are accepted and queued, posts queue their deliveries, and the
    /// processes of role `worker` (or `all`) do the rest.
    case web
    /// Background work only (inbox processing, deliveries, pushes, janitors); its port
    /// answers `/healthz`, `/readyz` and `/metrics` alone.
    case worker

    /// Whether the inbox, delivery and push workers and the scheduled jobs run.
    public var runsWorkers: Bool { self != .web }
    /// Whether the node's HTTP interface (everything but health and metrics) is served.
    public var servesHTTP: Bool { self != .worker }
}

/// Limits of the HTTP server's connections: how long a client may take to send a request and
/// how many connections are served at once. A client that opens a connection and then sends
/// nothing, or sends its request a byte at a time, holds a socket for at most these times.
public struct ServerLimits: Sendable, Equatable {
    /// Seconds a connection may wait before a request's head is complete: from the connection's
    /// start, and again from the end of each response (keep-alive).
    public var requestHeadSeconds: Double = 20
    /// Seconds a request body may pause between two reads.
    public var bodyIdleSeconds: Double = 30
    /// Connections served at once; beyond it new connections wait in the listen backlog.
    public var maxConnections: Int = 4096
    /// Largest single header line, in bytes.
    public var maxHeaderFieldBytes: Int = 16 * 1024
    /// Largest request head (all headers), in bytes; beyond it the answer is 431.
    public var maxHeaderListBytes: Int = 64 * 1024

    /// The defaults.
    public init() {}
}

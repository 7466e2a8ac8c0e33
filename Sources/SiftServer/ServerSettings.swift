import Sift

/// How a ``SiftServer/SiftServer`` listens and what it allows a request.
public struct ServerSettings: Sendable {
    /// The address to listen on; the loopback address by default, so that
    /// only this machine reaches the server.
    public var host: String
    /// The port; 0 picks a free one (``SiftServer/SiftServer/run(onStart:)`` says which).
    public var port: Int
    /// What a request's parameters may ask for: the policy (allow-list and
    /// evaluation budget), the default and maximum limit, the cost bound.
    public var fetch: RequestFetchOptions
    /// The longest a request's statements may run; past it the statement is
    /// interrupted and the request answered with a `timeout` problem (503).
    public var timeout: Duration
    /// The most requests that may wait for or run statements at once; one
    /// more is answered at once with a `busy` problem (503).
    public var maximumConcurrentRequests: Int
    /// Rows written to the response at a time; at most two such chunks are
    /// held per request, whatever the size of the page.
    public var rowsPerChunk: Int

    /// Settings; by default 127.0.0.1:8001, the default fetch options, a
    /// timeout of 10 seconds and 8 requests at once.
    public init(
        host: String = "127.0.0.1", port: Int = 8001, fetch: RequestFetchOptions = .default,
        timeout: Duration = .seconds(10), maximumConcurrentRequests: Int = 8, rowsPerChunk: Int = 64
    ) {
        self.host = host
        self.port = port
        self.fetch = fetch
        self.timeout = timeout
        self.maximumConcurrentRequests = maximumConcurrentRequests
        self.rowsPerChunk = rowsPerChunk
    }
}

import Activity
import CCurl
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// libcurl's process-wide set-up. `curl_global_init` is not thread-safe, and a `static let`
/// initialiser runs exactly once, whichever thread gets there first.
private enum CurlGlobal {
    static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
}

/// One client's libcurl multi handle and the transfers added to it. Every libcurl handle FedNode
/// uses lives in this file, the multi handle here and each easy handle in a `CurlTransfer`.
///
/// `@unchecked Sendable`: `wakeUp()` may be called from any thread (libcurl documents
/// `curl_multi_wakeup` so); every other method is called only on the client's worker thread.
package final class CurlMulti: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    /// Creates the multi handle, or returns `nil` when libcurl cannot be initialised.
    /// - Parameters:
    ///   - maxConnectionsPerHost: The per-host connection limit.
    ///   - maxIdleConnections: How many connections the cache keeps open for reuse.
    package init?(maxConnectionsPerHost: Int, maxIdleConnections: Int) {
        guard CurlGlobal.initialized, let handle = curl_multi_init() else { return nil }
        self.handle = handle
        // HTTP/2 multiplexing where the peer offers it, a bound on connections per peer, and
        // a cache that keeps one connection to each of many peers.
        _ = fednode_multi_setopt_long(handle, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX)
        _ = fednode_multi_setopt_long(handle, CURLMOPT_MAX_HOST_CONNECTIONS, max(1, maxConnectionsPerHost))
        _ = fednode_multi_setopt_long(handle, CURLMOPT_MAXCONNECTS, max(1, maxIdleConnections))
    }

    deinit {
        complete(Array(active.values), .failure(.cancelled))
        curl_multi_cleanup(handle)
    }

    /// The transfers in flight.
    package var transfers: [CurlTransfer] { Array(active.values) }

    /// Interrupts a `poll(timeoutMilliseconds:)` in progress. Any thread.
    package func wakeUp() {
        _ = curl_multi_wakeup(handle)
    }

    /// Starts a transfer, or finishes it with an error if libcurl refuses it.
    package func add(_ transfer: CurlTransfer) {
        let code = curl_multi_add_handle(handle, transfer.easy)
        guard code == CURLM_OK else {
            return transfer.finish(.failure(.transport(String(cString: curl_multi_strerror(code)))))
        }
        active[transfer.easy] = transfer
    }

    /// Ends the transfers that only wanted their status and had it long enough: their response is
    /// what arrived (a server may answer `201` and keep the connection open with no body).
    package func completeAnsweredEarly(now: ContinuousClock.Instant) {
        for transfer in active.values where transfer.answeredLongEnough(now: now) {
            complete(transfer, .success(transfer.response()))
        }
    }

    /// Whether a transfer waits for its status-only grace to pass (the caller then polls often).
    package var awaitsGrace: Bool { active.values.contains { $0.headersCompleteAt != nil && $0.statusIsEnough } }

    /// Takes transfers out of the multi handle, frees their easy handles and resumes their tasks.
    /// - Parameters:
    ///   - transfers: Transfers in flight.
    ///   - result: The outcome to report for each.
    package func complete(_ transfers: [CurlTransfer], _ result: Result<HTTPClientResponse, HTTPClientError>) {
        for transfer in transfers { complete(transfer, result) }
    }

    /// Reads and writes whatever the sockets allow, then completes every finished transfer.
    package func perform() {
        var running: Int32 = 0
        _ = curl_multi_perform(handle, &running)
        var queued: Int32 = 0
        while let message = curl_multi_info_read(handle, &queued) {
            // Read the message before removing its handle: removal invalidates it.
            let (kind, easy) = (message.pointee.msg, message.pointee.easy_handle)
            let code = message.pointee.data.result
            guard kind == CURLMSG_DONE, let easy, let transfer = active[easy] else { continue }
            complete(transfer, transfer.result(code))
        }
    }

    /// Sleeps until a socket is ready, one of libcurl's timers falls due, `wakeUp()` is called,
    /// or the timeout passes.
    /// - Parameter timeoutMilliseconds: The longest sleep.
    package func poll(timeoutMilliseconds: Int32) {
        _ = curl_multi_poll(handle, nil, 0, timeoutMilliseconds, nil)
    }

    private func complete(_ transfer: CurlTransfer, _ result: Result<HTTPClientResponse, HTTPClientError>) {
        guard active.removeValue(forKey: transfer.easy) != nil else { return }
        _ = curl_multi_remove_handle(handle, transfer.easy)
        transfer.releaseAddress(after: result)
        transfer.releaseHandle()
        transfer.finish(result)
    }
}

/// One request's libcurl easy handle, and what its callbacks collect.
///
/// `@unchecked Sendable`: after `init`, the easy handle, its buffers and its callbacks are used
/// only on the worker thread. `continuation` is set by the submitting task before the transfer is
/// queued (the queue's mutex orders that before the worker's use) and is resumed once, by the one
/// side holding the transfer at the end. `cancelled` is atomic.
package final class CurlTransfer: @unchecked Sendable {
    fileprivate let easy: UnsafeMutableRawPointer
    package var continuation: CheckedContinuation<Result<HTTPClientResponse, HTTPClientError>, Never>?
    private let url: String
    private let maxResponseBytes: Int
    private let allowPrivateAddresses: Bool
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let cancelled = Atomic<Bool>(false)
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var resolveList: UnsafeMutablePointer<curl_slist>?
    private var collector = ResponseHeaderCollector()
    private var body: [UInt8] = []
    private var exceededCap = false
    /// Whether only the status and headers matter (see `HTTPClientRequest.statusIsEnough`).
    fileprivate let statusIsEnough: Bool
    /// When the final response's headers were complete, for a status-only transfer.
    fileprivate private(set) var headersCompleteAt: ContinuousClock.Instant?
    /// The status of the response whose headers are being read.
    private var currentStatus = 0
    /// Whether a status-only transfer stopped reading its body on purpose.
    private var endedAfterStatus = false
    private var blockedAddress: String?
    /// The peer address refused because it has as many requests in flight as it may.
    private var busyAddress: String?
    /// The bound this request counts against, and the address it is counted on.
    private let addressLoad: AddressLoad
    private var countedAddress: AddressKey?
    /// The requested host (`name[:port]`), which a timeout marks slow.
    private let hostKey: String
    private var released = false

    /// Creates and configures the easy handle for a request.
    /// - Parameters:
    ///   - request: The request to send.
    ///   - configuration: The client's settings.
    ///   - addressLoad: The client's requests in flight per peer address.
    /// - Throws: `.invalidURL` or `.transport` when the request is malformed or libcurl refuses it.
    package init(request: HTTPClientRequest, configuration: CurlHTTPClient.Configuration, addressLoad: AddressLoad) throws(HTTPClientError) {
        try request.validate()
        self.addressLoad = addressLoad
        hostKey = HostAuthority.of(request.url) ?? request.url
        guard let easy = curl_easy_init() else { throw .transport("curl_easy_init failed") }
        self.easy = easy
        url = request.url
        maxResponseBytes = max(0, request.maxResponseBytes ?? configuration.maxResponseBytes)
        statusIsEnough = request.statusIsEnough
        allowPrivateAddresses = configuration.allowPrivateAddresses
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        // From here on a throw runs deinit, which frees the handle.
        try configureProtocol(request, configuration)
        try configureCallbacks()
        try configureHeaders(request, userAgent: configuration.userAgent)
        try configureMethod(request)
    }

    deinit {
        if !released { curl_easy_cleanup(easy) }
        curl_slist_free_all(headerList)
        curl_slist_free_all(resolveList)
        errorBuffer.deallocate()
    }

    /// Frees the easy handle on the worker thread, once it is out of the multi handle and its
    /// result has been read; `easy` must not be used after this.
    fileprivate func releaseHandle() {
        curl_easy_cleanup(easy)
        released = true
    }

    /// Whether the requesting task was cancelled.
    package var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Marks the transfer cancelled; the worker thread aborts it on its next turn. Any thread.
    package func cancel() { cancelled.store(true, ordering: .releasing) }

    /// Resumes the requesting task with the outcome; later calls do nothing.
    package func finish(_ result: Result<HTTPClientResponse, HTTPClientError>) {
        continuation?.resume(returning: result)
        continuation = nil
    }

    /// The outcome of the finished transfer, from libcurl's result and what the callbacks saw.
    fileprivate func result(_ code: CURLcode) -> Result<HTTPClientResponse, HTTPClientError> {
        if code == CURLE_OK || endedAfterStatus { return .success(response()) }
        if let blockedAddress { return .failure(.blockedAddress(blockedAddress)) }
        if let busyAddress { return .failure(.addressBusy(busyAddress)) }
        if exceededCap { return .failure(.responseTooLarge) }
        if isCancelled { return .failure(.cancelled) }
        let detail =
            errorBuffer.pointee != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        return .failure(HTTPClientError(curlCode: code, detail: detail, url: url))
    }

    /// Whether this status-only transfer has had its headers for longer than the grace period.
    fileprivate func answeredLongEnough(now: ContinuousClock.Instant) -> Bool {
        guard statusIsEnough, let headersCompleteAt else { return false }
        return now - headersCompleteAt >= HTTPClientRequest.statusOnlyGrace
    }

    fileprivate func response() -> HTTPClientResponse {
        var status = 0
        _ = fednode_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var effectiveURL: UnsafeMutablePointer<CChar>?
        _ = fednode_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effectiveURL)
        return HTTPClientResponse(
            status: status, headers: collector.headers, body: body,
            url: effectiveURL.map { String(cString: $0) } ?? url)
    }

    private func check(_ code: CURLcode) throws(HTTPClientError) {
        guard code == CURLE_OK else {
            throw .transport("curl_easy_setopt: " + String(cString: curl_easy_strerror(code)))
        }
    }

    private func configureProtocol(
        _ request: HTTPClientRequest, _ configuration: CurlHTTPClient.Configuration
    ) throws(HTTPClientError) {
        try check(fednode_easy_setopt_string(easy, CURLOPT_URL, request.url))
        try check(fednode_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        // An empty proxy overrides the *_proxy environment variables, so the address checked in
        // the open-socket callback is always the peer's own.
        try check(fednode_easy_setopt_string(easy, CURLOPT_PROXY, ""))
        try check(fednode_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        try check(fednode_easy_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
        try check(fednode_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, configuration.maxRedirects > 0 ? 1 : 0))
        try check(fednode_easy_setopt_long(easy, CURLOPT_MAXREDIRS, max(0, configuration.maxRedirects)))
        try check(fednode_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)))
        // Waiting to learn whether a connection can multiplex pays only where HTTP/2 can be had
        // (TLS with ALPN). Over plain http, libcurl held a new request to a host until that
        // host's pending one ended, so one hanging request stalled every later one to it.
        let secure = request.url.lowercased().hasPrefix("https:")
        try check(fednode_easy_setopt_long(easy, CURLOPT_PIPEWAIT, secure ? 1 : 0))
        try check(fednode_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, ""))  // all decoders built in
        // A request's own timeout replaces the client's; the connect timeout never exceeds it.
        let totalTimeout = request.timeout ?? configuration.totalTimeout
        let connectTimeout = min(configuration.connectTimeout, totalTimeout)
        try check(fednode_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, connectTimeout.curlMilliseconds))
        try check(fednode_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, totalTimeout.curlMilliseconds))
        // Refuses early when Content-Length announces too much; the write callback enforces the
        // cap on the decoded body whatever the server announces.
        let maxFileSize = curl_off_t(maxResponseBytes)
        try check(fednode_easy_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, maxFileSize))
        try check(fednode_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer))
        if configuration.allowPrivateAddresses, !configuration.resolve.isEmpty {
            for entry in configuration.resolve {
                guard let list = curl_slist_append(resolveList, entry) else { throw .transport("curl_slist_append failed") }
                resolveList = list
            }
            try check(fednode_easy_setopt_slist(easy, CURLOPT_RESOLVE, resolveList))
        }
    }

    private func configureCallbacks() throws(HTTPClientError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        try check(fednode_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
        })
        try check(fednode_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context))
        try check(fednode_easy_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
        })
        try check(fednode_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context))
        try check(fednode_easy_setopt_opensocket_callback(easy) { context, _, address in
            guard let context, let address else { return CURL_SOCKET_BAD }
            return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().openSocket(address)
        })
        try check(fednode_easy_setopt_pointer(easy, CURLOPT_OPENSOCKETDATA, context))
        // Called once the connection is made or reused, just before the request is sent: a
        // reused connection never reaches the open-socket callback.
        try check(fednode_easy_setopt_prereq_callback(easy) { context, primaryIP, _, _, _ in
            guard let context, let primaryIP else { return Int32(CURL_PREREQFUNC_ABORT) }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            return transfer.count(AddressKey(text: String(cString: primaryIP)), text: String(cString: primaryIP))
                ? Int32(CURL_PREREQFUNC_OK) : Int32(CURL_PREREQFUNC_ABORT)
        })
        try check(fednode_easy_setopt_pointer(easy, CURLOPT_PREREQDATA, context))
    }

    /// Counts this request against the peer address `key` (once; moving the count when libcurl
    /// tries another address), unless that address is at its bound.
    /// - Returns: Whether the request may go ahead.
    private func count(_ key: AddressKey?, text: @autoclosure () -> String) -> Bool {
        guard let key, key != countedAddress else { return true }
        if let counted = countedAddress { addressLoad.release(counted, host: hostKey) }
        countedAddress = nil
        guard addressLoad.acquire(key, host: hostKey) else {
            busyAddress = text()
            return false
        }
        (countedAddress, busyAddress) = (key, nil)
        return true
    }

    /// Stops counting this request against its peer address, now that it ended with `result`.
    fileprivate func releaseAddress(after result: Result<HTTPClientResponse, HTTPClientError>) {
        guard let counted = countedAddress else { return }
        countedAddress = nil
        let timedOut = if case .failure(.timedOut) = result { true } else { false }
        let answered = if case .success = result { true } else { false }
        addressLoad.release(counted, host: hostKey, timedOut: timedOut, answered: answered)
    }

    private func configureHeaders(_ request: HTTPClientRequest, userAgent: String) throws(HTTPClientError) {
        try check(fednode_easy_setopt_string(easy, CURLOPT_USERAGENT, userAgent))
        // "Expect:" removes libcurl's `Expect: 100-continue`, which would wait for an interim
        // response before sending a larger body (RFC 9110 10.1.1); federation bodies are small.
        // "Name;" is libcurl's way to send a header with an empty value.
        let given = request.headers.map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" }
        for line in ["Expect:"] + given {
            guard let list = curl_slist_append(headerList, line) else {
                throw .transport("curl_slist_append failed")
            }
            headerList = list
        }
        try check(fednode_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList))
    }

    private func configureMethod(_ request: HTTPClientRequest) throws(HTTPClientError) {
        switch (request.method, request.body) {
        case ("GET", nil):
            return try check(fednode_easy_setopt_long(easy, CURLOPT_HTTPGET, 1))
        case ("HEAD", nil):
            return try check(fednode_easy_setopt_long(easy, CURLOPT_NOBODY, 1))
        case (_, nil) where request.method != "POST":
            return try check(fednode_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method))
        default:
            break
        }
        // COPYPOSTFIELDS copies the body (its size set first, so it may hold NUL bytes) and
        // makes the request a POST; any other method then replaces the verb.
        let body = request.body ?? []
        try check(fednode_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
        if body.isEmpty {
            try check(fednode_easy_setopt_string(easy, CURLOPT_COPYPOSTFIELDS, ""))
        } else {
            try check(body.withUnsafeBytes { bytes in
                let start = UnsafeMutableRawPointer(mutating: bytes.baseAddress)
                return fednode_easy_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, start)
            })
        }
        if request.method != "POST" {
            try check(fednode_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method))
        }
    }

    private func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Int {
        if statusIsEnough, headersCompleteAt != nil {
            let room = HTTPClientRequest.statusOnlyBodyBytes - body.count
            body.append(contentsOf: chunk.prefix(max(0, room)))
            guard chunk.count <= room else {
                endedAfterStatus = true
                return 0  // enough for a log line: end the transfer, as a success
            }
            return chunk.count
        }
        guard body.count + chunk.count <= maxResponseBytes else {
            exceededCap = true
            return 0  // anything but chunk.count aborts the transfer with CURLE_WRITE_ERROR
        }
        body.append(contentsOf: chunk)
        return chunk.count
    }

    private func receiveHeader(_ line: UnsafeRawBufferPointer) -> Int {
        // A new status line starts a new response (after a redirect or 100 Continue): what was
        // collected before belongs to an earlier one.
        let text = String(decoding: line, as: UTF8.self)
        if collector.consume(text) {
            body.removeAll(keepingCapacity: true)
            currentStatus = Self.status(inStatusLine: text)
            headersCompleteAt = nil
        } else if text.allSatisfy(\.isNewline), currentStatus >= 200, !(300...399).contains(currentStatus) {
            // The blank line ending a final (not interim, not redirect) response's headers.
            headersCompleteAt = ContinuousClock.now
        }
        return line.count
    }

    /// The code in `HTTP/1.1 201 Created` (0 when unreadable).
    private static func status(inStatusLine line: String) -> Int {
        let parts = line.split(separator: " ", maxSplits: 2)
        return parts.count >= 2 ? Int(parts[1].prefix(3)) ?? 0 : 0
    }

    /// libcurl's open-socket callback: the SSRF check, on the resolved address of every
    /// connection libcurl opens, redirects included.
    private func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        let bytes = Self.addressBytes(address)
        let category = bytes.map(AddressPolicy.category(bytes:)) ?? .reserved
        guard AddressPolicy.permits(category, allowPrivateAddresses: allowPrivateAddresses) else {
            blockedAddress = bytes.map(AddressPolicy.text(bytes:)) ?? "address family \(address.pointee.family)"
            return CURL_SOCKET_BAD
        }
        guard count(bytes.flatMap(AddressKey.init(bytes:)), text: bytes.map(AddressPolicy.text(bytes:)) ?? "?") else {
            return CURL_SOCKET_BAD
        }
        return socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
    }

    /// The IPv4 or IPv6 address in a `curl_sockaddr`, in network order; `nil` for other families.
    private static func addressBytes(_ address: UnsafeMutablePointer<curl_sockaddr>) -> [UInt8]? {
        let family = address.pointee.family
        let length = Int(address.pointee.addrlen)
        guard let raw = fednode_curl_sockaddr_address(address) else { return nil }
        if family == AF_INET, length >= MemoryLayout<sockaddr_in>.size {
            return withUnsafeBytes(of: raw.loadUnaligned(as: sockaddr_in.self).sin_addr) { Array($0) }
        }
        if family == AF_INET6, length >= MemoryLayout<sockaddr_in6>.size {
            return withUnsafeBytes(of: raw.loadUnaligned(as: sockaddr_in6.self).sin6_addr) { Array($0) }
        }
        return nil
    }
}

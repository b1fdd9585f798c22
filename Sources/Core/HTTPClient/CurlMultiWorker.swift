import Foundation
import Synchronization

/// Runs the transfers of one `CurlHTTPClient` on one dedicated thread over one `CurlMulti`: many
/// requests in flight at once, sharing the multi handle's connection cache.
///
/// Other threads hand work to the worker thread through `state` and wake it with
/// `CurlMulti.wakeUp()`; only the worker thread drives the multi handle.
package final class CurlMultiWorker: Sendable {
    private struct State {
        var incoming: [CurlTransfer] = []
        var stopReason: HTTPClientError?
    }

    private let configuration: CurlHTTPClient.Configuration
    private let addressLoad: AddressLoad
    private let multi: CurlMulti?
    private let state: Mutex<State>

    /// Creates the multi handle and starts the worker thread. If libcurl cannot be initialised,
    /// no thread starts and every request fails with `.transport`.
    /// - Parameters:
    ///   - configuration: The client's settings.
    ///   - addressLoad: The client's requests in flight per peer address.
    package init(configuration: CurlHTTPClient.Configuration, addressLoad: AddressLoad) {
        self.configuration = configuration
        self.addressLoad = addressLoad
        let multi = CurlMulti(
            maxConnectionsPerHost: configuration.maxConnectionsPerHost, maxIdleConnections: configuration.maxIdleConnections)
        self.multi = multi
        let failure: HTTPClientError? = multi == nil ? .transport("libcurl could not be initialised") : nil
        state = Mutex(State(stopReason: failure))
        guard let multi else { return }
        // The thread keeps the worker (and so the multi handle) alive until it ends.
        let thread = Thread { [self] in run(multi) }
        thread.name = "fednode-curl"
        thread.start()
    }

    /// Runs one request to completion on the worker thread.
    /// - Parameter request: The request to send.
    /// - Returns: The final response, or why there is none.
    package func execute(_ request: HTTPClientRequest) async -> Result<HTTPClientResponse, HTTPClientError> {
        if Task.isCancelled { return .failure(.cancelled) }
        let transfer: CurlTransfer
        do {
            transfer = try CurlTransfer(request: request, configuration: configuration, addressLoad: addressLoad)
        } catch {
            return .failure(error)
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.continuation = continuation
                submit(transfer)
            }
        } onCancel: {
            // The worker thread sees the flag on its next turn and aborts the transfer.
            transfer.cancel()
            multi?.wakeUp()
        }
    }

    /// Fails every request in flight or queued with `.cancelled` and ends the worker thread.
    /// Returns at once; calling it again does nothing.
    package func shutdown() {
        state.withLock { state in
            if state.stopReason == nil { state.stopReason = .cancelled }
        }
        multi?.wakeUp()
    }

    private func submit(_ transfer: CurlTransfer) {
        let refusal = state.withLock { state -> HTTPClientError? in
            if let reason = state.stopReason { return reason }
            state.incoming.append(transfer)
            return nil
        }
        if let refusal {
            transfer.finish(.failure(refusal))
        } else {
            multi?.wakeUp()
        }
    }

    /// The worker thread: starts new transfers, aborts cancelled ones, drives the rest, and
    /// sleeps until there is something to do. Ends once `shutdown()` was called.
    private func run(_ multi: CurlMulti) {
        while true {
            let (incoming, stopReason) = state.withLock { state in
                defer { state.incoming.removeAll() }
                return (state.incoming, state.stopReason)
            }
            if let stopReason {
                multi.complete(multi.transfers, .failure(stopReason))
                for transfer in incoming { transfer.finish(.failure(stopReason)) }
                return
            }
            for transfer in incoming {
                if transfer.isCancelled {
                    transfer.finish(.failure(.cancelled))
                } else {
                    multi.add(transfer)
                }
            }
            multi.complete(multi.transfers.filter(\.isCancelled), .failure(.cancelled))
            multi.perform()
            multi.completeAnsweredEarly(now: .now)
            // libcurl shortens the sleep to its own next timeout, so timeouts stay precise; a
            // status-only transfer waiting out its grace needs a shorter one.
            multi.poll(timeoutMilliseconds: multi.awaitsGrace ? 50 : 1000)
        }
    }
}

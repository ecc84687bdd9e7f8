import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a loader's responses come from. Applications get `LoaderNetwork` (`URLSession`);
/// the rule tests give a scripted transport that needs no socket. The loader's bounds,
/// HTTP rules and caches are all on the receiving side, so every transport gets them.
package protocol LoaderTransport: Sendable {
    /// A task for `request` whose events go to `receiver` once it is resumed: redirects and
    /// the response head, then the body's pieces, then the end, one at a time and in order.
    /// When the receiver answers false the transport stops sending.
    func start(_ request: URLRequest, for receiver: any TransportReceiver) -> any TransportTask
}

/// One request in flight on a `LoaderTransport`.
package protocol TransportTask: AnyObject, Sendable {
    /// Starts sending events.
    func resume()
    /// Stops the transfer; the receiver hears `completed` with `URLError.cancelled`, or nothing.
    func cancel()
    /// How urgent the transfer is, 0…1 (`URLSessionTask.priority`).
    var priority: Float { get set }
}

/// What hears a `LoaderTransport` task's events: the loader's download.
package protocol TransportReceiver: AnyObject, Sendable {
    /// The response head; false refuses it (the transport cancels).
    func received(response: URLResponse) -> Bool
    /// More of the body; false stops the transfer.
    func received(data: Data) -> Bool
    /// A redirect is about to be followed; false refuses it (`response` then arrives as the
    /// response).
    func redirected(_ response: HTTPURLResponse) -> Bool
    /// The transfer ended, with `error` or not; `response` is the last response seen.
    func completed(error: (any Error)?, response: URLResponse?)
}

extension URLSessionDataTask: TransportTask {}

/// A transport's own timeout behind the loader's `timeout` or `deadline` (`bound`): late
/// enough that the loader's watch, whose error says which bound passed, always ends first.
func transportBackstop(_ bound: Duration) -> Duration { bound * 2 + .seconds(5) }

#if canImport(CCurl)
import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The loader's transport on Linux: libcurl, driven by one thread of the process
/// (`CurlLoop`). Each piece of a body reaches the loader as libcurl reads it, and the next
/// is read only after the loader has taken it, so what a download holds is what the loader
/// kept, whatever the server sends. Heads are parsed by `ResponseHead`, which bounds them
/// and never traps; a head cut short is an error, not the end of the process.
final class CurlTransport: LoaderTransport {
    /// Backstops behind the loader's own timeout and deadline.
    let connectTimeout: Duration
    let totalTimeout: Duration

    init(timeout: Duration, deadline: Duration) {
        connectTimeout = transportBackstop(timeout)
        totalTimeout = transportBackstop(deadline)
    }

    func start(_ request: URLRequest, for receiver: any TransportReceiver) -> any TransportTask {
        CurlTask(request: request, receiver: receiver, transport: self)
    }
}
#endif

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension AnimatedImageLoader.Configuration {
    /// The transport a loader made with this configuration uses: the configured one; else,
    /// on Linux, libcurl (`CurlTransport`) unless `sessionConfiguration` asks for a
    /// `URLSession`; else `URLSession` (`LoaderNetwork`).
    func makeTransport() -> any LoaderTransport {
        if let transport { return transport }
        #if canImport(CCurl)
        if sessionConfiguration == nil { return CurlTransport(timeout: timeout, deadline: deadline) }
        #endif
        return LoaderNetwork(base: sessionConfiguration, timeout: timeout, deadline: deadline)
    }
}

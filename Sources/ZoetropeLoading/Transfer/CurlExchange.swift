#if canImport(CCurl)
import CCurl
import Foundation
import Zoetrope

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request and its response on `CurlLoop`'s thread: a libcurl easy handle whose head
/// lines and body pieces go to the task's receiver. Redirects are not followed by libcurl:
/// the receiver decides each one, and the loop starts the next exchange.
final class CurlExchange {
    /// The most redirects one task follows, whatever its receiver allows.
    static let redirectLimit = 64

    let task: CurlTask
    let easy: UnsafeMutableRawPointer
    let url: URL
    /// Redirects followed before this exchange.
    let redirects: Int
    /// Where the task goes next, when this response is a redirect its receiver follows.
    private(set) var redirect: URL?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var head = ResponseHead()
    private var response: HTTPURLResponse?
    private var delivered = false
    private var refused = false
    private var failure: URLError?

    init(task: CurlTask, url: URL?, redirects: Int) throws {
        guard let url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: "only http and https URLs are loaded"])
        }
        guard let easy = curl_easy_init() else {
            throw URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "libcurl could not make a handle"])
        }
        self.task = task
        self.easy = easy
        self.url = url
        self.redirects = redirects
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        configure()
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    private func configure() {
        let request = task.request
        zcurl_set_string(easy, CURLOPT_URL, url.absoluteString)
        zcurl_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        zcurl_set_long(easy, CURLOPT_NOSIGNAL, 1)
        zcurl_set_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        zcurl_set_long(easy, CURLOPT_TCP_KEEPALIVE, 1)
        zcurl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(task.transport.connectTimeout))
        zcurl_set_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(task.transport.totalTimeout))
        zcurl_set_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        let me = Unmanaged.passUnretained(self).toOpaque()
        zcurl_set_pointer(easy, CURLOPT_HEADERDATA, me)
        zcurl_set_pointer(easy, CURLOPT_WRITEDATA, me)
        zcurl_set_write(easy, CURLOPT_HEADERFUNCTION) { bytes, size, count, me in
            guard let me else { return 0 }
            let exchange = Unmanaged<CurlExchange>.fromOpaque(me).takeUnretainedValue()
            let length = size * count
            return exchange.headLine(UnsafeRawBufferPointer(start: bytes, count: length)) ? length : 0
        }
        zcurl_set_write(easy, CURLOPT_WRITEFUNCTION) { bytes, size, count, me in
            guard let me else { return 0 }
            let exchange = Unmanaged<CurlExchange>.fromOpaque(me).takeUnretainedValue()
            let length = size * count
            return exchange.body(UnsafeRawBufferPointer(start: bytes, count: length)) ? length : 0
        }
        var fields = request.allHTTPHeaderFields ?? [:]
        // libcurl decodes what it offers; an encoding the request names is offered instead.
        let encodingName = fields.keys.first { $0.lowercased() == "accept-encoding" }
        zcurl_set_string(easy, CURLOPT_ACCEPT_ENCODING, encodingName.flatMap { fields.removeValue(forKey: $0) } ?? "")
        if !fields.keys.contains(where: { $0.lowercased() == "user-agent" }) {
            zcurl_set_string(easy, CURLOPT_USERAGENT, "Zoetrope")
        }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            headerList = curl_slist_append(headerList, value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        if let headerList { zcurl_set_pointer(easy, CURLOPT_HTTPHEADER, headerList) }
        switch request.httpMethod?.uppercased() ?? "GET" {
        case "GET": break
        case "HEAD": zcurl_set_long(easy, CURLOPT_NOBODY, 1)
        case let method:
            zcurl_set_string(easy, CURLOPT_CUSTOMREQUEST, method)
            if let body = request.httpBody {
                zcurl_set_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
                _ = body.withUnsafeBytes { zcurl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
            }
        }
    }

    /// One line of a head; false stops the exchange.
    private func headLine(_ line: UnsafeRawBufferPointer) -> Bool {
        guard !task.isCancelled, !refused else { return false }
        switch head.take(line) {
        case .more: return true
        case .invalid(let reason):
            failure = URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: reason])
            return false
        case .complete:
            guard !delivered else { return true }  // trailers
            return headComplete()
        }
    }

    private func headComplete() -> Bool {
        guard let response = HTTPURLResponse(url: url, statusCode: head.status, httpVersion: head.version, headerFields: head.fields)
        else {
            failure = URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: "the response head could not be read"])
            return false
        }
        self.response = response
        if [301, 302, 303, 307, 308].contains(head.status), let location = head.fields["Location"],
            let next = URL(string: location, relativeTo: url)?.absoluteURL,
            ["http", "https"].contains(next.scheme?.lowercased() ?? "")
        {
            if redirects < Self.redirectLimit, task.receiver.redirected(response) {
                redirect = next
                return false
            }
            // Not followed: the redirect is the response.
        }
        delivered = true
        if !task.receiver.received(response: response) {
            refused = true
            return false
        }
        return true
    }

    /// A piece of the body; false stops the exchange.
    private func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !task.isCancelled, !refused, delivered else { return false }
        if bytes.isEmpty { return true }
        if !task.receiver.received(data: Data(bytes)) {
            refused = true
            return false
        }
        return true
    }

    /// How the exchange ended, for the receiver: libcurl's `result` with what this side
    /// knows (a cancellation, a refusal, a head that could not be read).
    func outcome(_ result: CURLcode) -> (error: (any Error)?, response: URLResponse?) {
        if task.isCancelled || refused || result == CURLE_ABORTED_BY_CALLBACK { return (URLError(.cancelled), response) }
        if let failure { return (failure, response) }
        if result == CURLE_OK {
            guard delivered else {
                return (
                    URLError(
                        .badServerResponse, userInfo: [NSLocalizedDescriptionKey: "the connection closed before the response head was complete"]),
                    response
                )
            }
            return (nil, response)
        }
        let detail = String(cString: errorBuffer)
        let message = detail.isEmpty ? String(cString: curl_easy_strerror(result)) : detail
        return (URLError(Self.code(result), userInfo: [NSLocalizedDescriptionKey: message]), response)
    }

    /// The `URLError` code for a libcurl result.
    static func code(_ result: CURLcode) -> URLError.Code {
        switch result {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .cannotFindHost
        case CURLE_COULDNT_CONNECT: return .cannotConnectToHost
        case CURLE_OPERATION_TIMEDOUT: return .timedOut
        case CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR: return .networkConnectionLost
        case CURLE_SSL_CONNECT_ERROR: return .secureConnectionFailed
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE: return .serverCertificateUntrusted
        case CURLE_BAD_CONTENT_ENCODING: return .cannotDecodeContentData
        case CURLE_URL_MALFORMAT: return .badURL
        case CURLE_WEIRD_SERVER_REPLY, CURLE_UNSUPPORTED_PROTOCOL, CURLE_HTTP2, CURLE_HTTP2_STREAM: return .badServerResponse
        default: return .unknown
        }
    }

    /// Whole milliseconds for libcurl's timeouts: at least 1 (0 would mean none), at most
    /// `Int32.max`.
    private static func milliseconds(_ duration: Duration) -> Int {
        Int(min(max(duration.wholeNanoseconds / 1_000_000, 1), Int64(Int32.max)))
    }
}
#endif

/// Why Zoetrope could not decode (or encode) an image. Every case says which format
/// and what was wrong, so one line is enough to act on.
public enum AnimatedImageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No registered coder recognises the data.
    case unrecognizedFormat(prefix: [UInt8])
    /// The data is too short to even identify or start decoding.
    case insufficientData(format: ImageFormat?, needed: Int, available: Int)
    /// A value in the file breaks a `Limits` bound; nothing was allocated for it.
    ///
    /// `requested` is the value the file asks for. Decoders that count frames as they
    /// index (GIF, APNG) stop at the limit and report `allowed + 1` for `.frameCount`, and
    /// `.pixelsPerPlay` is checked as frames are found, so for those two the message says
    /// "more than" / "at least" rather than claim a total the decoder never counted.
    /// `Int.max` means the value overflowed.
    case limitExceeded(format: ImageFormat, limit: LimitKind, requested: Int, allowed: Int)
    /// The file is malformed.
    case invalidData(format: ImageFormat, reason: String)
    /// The file ends early. Frames before `completeFrames` decoded; later ones do not exist.
    case truncated(format: ImageFormat, completeFrames: Int, reason: String)
    /// A frame index outside the animation.
    case frameOutOfRange(index: Int, frameCount: Int)
    /// The file uses a feature this coder does not handle.
    case unsupported(format: ImageFormat, feature: String)
    /// The underlying C library failed; `message` is its own text.
    case codecFailure(format: ImageFormat, library: String, message: String)
    /// A caller-side misuse, such as a buffer of the wrong shape.
    case invalidArgument(String)
    /// The bytes could not be read: `location` is the file path or URL, `reason` why
    /// (no such file, a directory, permission denied, an HTTP status, ...).
    case unreadable(location: String, reason: String)
    /// `AnimatedImage(named:in:)` found no resource `name` in the bundle at `bundlePath`
    /// with any of `triedExtensions` (the registered formats' file extensions).
    case resourceNotFound(name: String, bundlePath: String, triedExtensions: [String])
    /// An incremental source was asked for frame `index` before all of its bytes arrived:
    /// `availableFrames` frames are complete so far, and more data may still bring this one.
    case frameNotYetAvailable(index: Int, availableFrames: Int)
    /// The server answered the request for `url` with HTTP `status` instead of the image.
    case httpStatus(url: String, status: Int)
    /// The response for `url` ended after `received` of the `expected` bytes its
    /// `Content-Length` announced.
    case truncatedResponse(url: String, received: Int, expected: Int)
    /// The response for `url` is larger than the loader's `maximumResponseBytes` (`limit`):
    /// `size` is its announced `Content-Length`, or `limit + 1` when the body passed the
    /// limit as it arrived (what a server sends past the limit is never read).
    case responseTooLarge(url: String, size: Int, limit: Int)
    /// The loader's downloads in flight together would hold more than its
    /// `maximumResponseBytesInFlight` (`limit`): the download of `url` stopped.
    case responseBudgetExceeded(url: String, limit: Int)
    /// The response head for `url` did not arrive within `seconds`.
    case noResponse(url: String, seconds: Double)
    /// No byte of the response body for `url` arrived for `seconds`.
    case timedOut(url: String, seconds: Double)
    /// The download of `url` did not finish within its deadline of `seconds`, however
    /// steadily the server sent.
    case deadlineExceeded(url: String, seconds: Double)
    /// A request that may not use the network (`cachePolicy` `.cacheOnly`) found `url` in
    /// neither the memory nor the disk cache.
    case notCached(url: String)
    /// Following the redirects from `url` took more than `limit` of them.
    case tooManyRedirects(url: String, limit: Int)

    /// One line naming the format and what was wrong, fit for a log or a command-line error.
    public var description: String {
        switch self {
        case .unrecognizedFormat(let prefix):
            let hex = prefix.prefix(8).map { String($0, radix: 16).leftPadded(to: 2) }.joined(separator: " ")
            return "unrecognized image format (no registered coder matches the content; first bytes: \(hex.isEmpty ? "none" : hex))"
        case .insufficientData(let format, let needed, let available):
            return "\(format.map { "\($0): " } ?? "")not enough data: need at least \(needed) bytes, have \(available)"
        case .limitExceeded(let format, let limit, let requested, let allowed):
            return "\(format): \(limit.rawValue) exceeded: \(Self.request(limit, requested, allowed)), the limit is \(allowed)"
        case .invalidData(let format, let reason):
            return "\(format): invalid data: \(reason)"
        case .truncated(let format, let complete, let reason):
            return "\(format): truncated after \(complete) complete frame\(complete == 1 ? "" : "s"): \(reason)"
        case .frameOutOfRange(let index, let count):
            return "frame \(index) out of range (the animation has \(count) frame\(count == 1 ? "" : "s"))"
        case .frameNotYetAvailable(let index, let available):
            return "frame \(index) has not arrived yet (\(available) complete frame\(available == 1 ? "" : "s") so far; more data may bring it)"
        case .unsupported(let format, let feature):
            return "\(format): unsupported: \(feature)"
        case .codecFailure(let format, let library, let message):
            return "\(format): \(library) failed: \(message)"
        case .invalidArgument(let message):
            return "invalid argument: \(message)"
        case .unreadable(let location, let reason):
            return "\(location): \(reason)"
        case .resourceNotFound(let name, let bundlePath, let tried):
            let list = tried.isEmpty ? "no format is registered" : "tried " + tried.map { "." + $0 }.joined(separator: ", ")
            return "no resource named '\(name)' in the bundle at \(bundlePath) (\(list))"
        case .httpStatus(let url, let status):
            return "\(url): the server answered HTTP \(status)\(Self.reasonPhrase(status).map { " (\($0))" } ?? "")"
        case .truncatedResponse(let url, let received, let expected):
            return "\(url): the response ended after \(received) of the \(expected) bytes its Content-Length announced"
        case .responseTooLarge(let url, let size, let limit):
            if size == limit &+ 1 {
                return "\(url): the response is larger than the limit of \(limit) bytes (maximumResponseBytes)"
            }
            return "\(url): the response is \(size) bytes, over the limit of \(limit) (maximumResponseBytes)"
        case .responseBudgetExceeded(let url, let limit):
            return "\(url): the downloads in flight together passed their budget of \(limit) bytes (maximumResponseBytesInFlight)"
        case .noResponse(let url, let seconds):
            return "\(url): timed out: no response from the server within \(Self.seconds(seconds)) s"
        case .timedOut(let url, let seconds):
            return "\(url): timed out: no data from the server for \(Self.seconds(seconds)) s"
        case .deadlineExceeded(let url, let seconds):
            return "\(url): the download did not finish within its deadline of \(Self.seconds(seconds)) s"
        case .notCached(let url):
            return "\(url): not in the memory or disk cache, and the request may not use the network (cacheOnly)"
        case .tooManyRedirects(let url, let limit):
            return "\(url): more than \(limit) redirects"
        }
    }
}

extension AnimatedImageError {
    /// What the file asks for, worded so it stays true when a decoder stopped counting at the limit.
    fileprivate static func request(_ limit: LimitKind, _ requested: Int, _ allowed: Int) -> String {
        if requested == .max { return "the file asks for more than \(Int.max)" }
        switch limit {
        case .frameCount:
            return requested == allowed &+ 1 ? "the file has more than \(allowed) frames" : "the file has \(requested) frames"
        case .pixelsPerPlay:
            return "the file asks for at least \(requested) pixels in one play"
        case .width, .height, .canvasPixels, .allocationBytes:
            return "the file asks for \(requested)"
        }
    }
}

extension AnimatedImageError {
    /// The standard reason phrase of the statuses an image request commonly meets.
    fileprivate static func reasonPhrase(_ status: Int) -> String? {
        switch status {
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 410: "Gone"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: nil
        }
    }

    /// Seconds without a trailing ".0" for whole values.
    fileprivate static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}

import Foundation
import ZoetropeCodecs

// `zoetrope-fetch URL [--cache DIR] [--timeout SECONDS] [--max-bytes N]`: the body at an
// http(s) URL on standard output, each piece as soon as it arrives, through
// `AnimatedImageLoader` (its disk cache in DIR with --cache, the whole download's deadline
// with --timeout, at most N bytes with --max-bytes: never more is written, whatever arrives). `zoetrope` runs it for URL arguments and reads it as it reads standard input;
// it is a process of its own so that full Foundation and libcurl (and its libraries) are
// loaded only when a URL is read, not at every start of the tool
// (Docs/Benchmarks.md, "The tool and URLs"). On failure: one line on standard error, exit 1.

var arguments = Array(CommandLine.arguments.dropFirst())
/// Takes `--name VALUE` out of the arguments.
@MainActor func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(i...(i + 1)) }
    return arguments[i + 1]
}
let usage = "usage: zoetrope-fetch URL [--cache DIR] [--timeout SECONDS] [--max-bytes N] (an http or https URL)\n"
let cacheFolder = option("--cache")
let timeout = option("--timeout").map { Double($0) ?? -1 }
let maxBytes = option("--max-bytes").map { Int($0) ?? -1 }
guard arguments.count == 1, let url = URL(string: arguments[0]), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
    (timeout ?? 1) > 0, (timeout ?? 1) <= 86_400, (maxBytes ?? 1) > 0
else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}

CoderRegistry.shared.registerBuiltInCoders()
var configuration = AnimatedImageLoader.Configuration(
    memoryCacheLimit: 0,
    diskCache: cacheFolder.map { .init(folder: URL(fileURLWithPath: $0), sizeLimit: DiskCache.Configuration.standard.sizeLimit) },
    memoryPressure: nil)
if let timeout { configuration.deadline = .milliseconds(Int64(timeout * 1000)) }
if let maxBytes { configuration.maximumResponseBytes = maxBytes }
let loader = AnimatedImageLoader(configuration: configuration)
// SIGPIPE ends the process when the reader stops reading (the tool found an error of its own).
let emit: @Sendable (Data) -> Void = { data in
    data.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let n = write(1, bytes.baseAddress! + offset, bytes.count - offset)
            if n > 0 { offset += n } else if n < 0, errno != EINTR { exit(1) }
        }
    }
}
do {
    _ = try await loader.image(for: url, received: emit)
    exit(0)
} catch {
    let message = "\(error)"
    let line = message.hasPrefix(url.absoluteString) ? message : "\(url.absoluteString): \(message)"
    FileHandle.standardError.write(Data((line + "\n").utf8))
    exit(1)
}

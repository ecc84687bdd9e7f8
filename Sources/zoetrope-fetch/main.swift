import Foundation
import ZoetropeCodecs

// `zoetrope-fetch URL [--cache DIR]`: the body at an http(s) URL on standard output, each
// piece as soon as it arrives, through `AnimatedImageLoader` (its disk cache in DIR with
// --cache). `zoetrope` runs it for URL arguments and reads it as it reads standard input;
// it is a process of its own so that URLSession (FoundationNetworking, libcurl and its
// libraries) is loaded only when a URL is read, not at every start of the tool
// (Docs/Benchmarks.md, "The tool and URLs"). On failure: one line on standard error, exit 1.

var arguments = Array(CommandLine.arguments.dropFirst())
var cacheFolder: String?
if let i = arguments.firstIndex(of: "--cache"), i + 1 < arguments.count {
    cacheFolder = arguments[i + 1]
    arguments.removeSubrange(i...(i + 1))
}
guard arguments.count == 1, let url = URL(string: arguments[0]), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
    FileHandle.standardError.write(Data("usage: zoetrope-fetch URL [--cache DIR] (an http or https URL)\n".utf8))
    exit(2)
}

CoderRegistry.shared.registerBuiltInCoders()
let loader = AnimatedImageLoader(
    configuration: .init(
        memoryCacheLimit: 0,
        diskCache: cacheFolder.map { .init(folder: URL(fileURLWithPath: $0), sizeLimit: DiskCache.Configuration.standard.sizeLimit) }))
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

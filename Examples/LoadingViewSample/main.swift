// Runs the loading view sample (Sample.swift) against a server at BASE_URL that serves
// banner.webp, photo.jpg, big.gif, a.gif, b.gif, c.gif, slow.gif (and no missing.gif),
// with its disk cache in CACHE_FOLDER. The tests run it against a loopback server.
// Usage: LoadingViewSample BASE_URL CACHE_FOLDER
import Foundation

guard CommandLine.arguments.count == 3, let base = URL(string: CommandLine.arguments[1]) else {
    FileHandle.standardError.write(Data("usage: LoadingViewSample BASE_URL CACHE_FOLDER\n".utf8))
    exit(2)
}
try await loadingDemo(base: base, cacheFolder: URL(fileURLWithPath: CommandLine.arguments[2], isDirectory: true))

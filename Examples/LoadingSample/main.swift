// Runs issue 23's loading sample (Sample.swift) against a server at BASE_URL that serves
// banner.webp, photo.jpg, big.gif, a.gif, b.gif, c.gif, slow.gif (and no missing.gif),
// with its disk cache in CACHE_FOLDER. The tests run it against a loopback server.
// Usage: LoadingSample BASE_URL CACHE_FOLDER
import Foundation

guard CommandLine.arguments.count == 3, let base = URL(string: CommandLine.arguments[1]) else {
    FileHandle.standardError.write(Data("usage: LoadingSample BASE_URL CACHE_FOLDER\n".utf8))
    exit(2)
}
try await loadingDemo(base: base, cacheFolder: URL(fileURLWithPath: CommandLine.arguments[2], isDirectory: true))

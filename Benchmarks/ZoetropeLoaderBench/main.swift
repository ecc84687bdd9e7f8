import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ZoetropeCodecs
import ZoetropeTestSupport

// zoetrope-loader-bench [--hits N] [--rounds N] [--urls N] [--transport default|urlsession]
//                       [--parts hits,disk,concurrent,views-load,views-player,endless]
// AnimatedImageLoader side by side with what an application does without it, in one run,
// against ZoetropeTestSupport's loopback HTTP server:
// 1. a memory-cache hit (`cachedImage(for:)`), per call;
// 2. a disk-cache hit's first frame (a new loader, fresh entry: read, map, decode the
//    poster) against opening the same bytes as a local file (`AnimatedImage(contentsOf:)`);
// 3. 64 concurrent requests for 8 URLs: the loader against plain
//    `URLSession.shared.data(from:)` calls each decoded with `AnimatedImage(data:)`:
//    downloads the server saw and wall time;
// 4. 100 displays showing `--urls` (10) animated URLs for two seconds, through
//    `load(_:into:)` (views-load) or through `player(for:display:)` per view
//    (views-player): downloads, players (each a decoder), frames shown, and the process's
//    peak resident memory (one part per process, so that the peak is that part's);
// 5. an endless body (as fast as loopback goes) against `maximumResponseBytes` of 16 MiB
//    (endless): the error, the time it took and the process's peak resident memory.
// --transport urlsession makes the endless part download through URLSession (a
// `sessionConfiguration`) instead of the platform's default (libcurl on Linux).

var hits = 2_000_000
var rounds = 7
var urlCount = 10
var parts: Set<String> = ["hits", "disk", "concurrent"]
var transport = "default"
var args = Array(CommandLine.arguments.dropFirst())
while args.count >= 2 {
    let name = args.removeFirst(), value = args.removeFirst()
    switch name {
    case "--hits": hits = Int(value) ?? hits
    case "--rounds": rounds = Int(value) ?? rounds
    case "--urls": urlCount = max(1, min(100, Int(value) ?? urlCount))
    case "--parts": parts = Set(value.split(separator: ",").map(String.init))
    case "--transport": transport = value
    default: break
    }
}

CoderRegistry.shared.registerBuiltInCoders()
let server = try LoopbackHTTPServer()
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zoetrope-loader-bench-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

/// A `side`×`side` GIF of `frames` frames of random colours (about a byte per pixel per frame).
func noiseGIF(side: Int, frames: Int, seed: UInt64) -> Data {
    var w = GIFWriter(width: side, height: side, globalColors: [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255)])
    w.loop(0)
    var random = SplitMix64(seed: seed)
    for _ in 0..<frames {
        w.graphicControl(delay: 5)
        w.image(width: side, height: side, indices: (0..<(side * side)).map { _ in UInt8(random.next() % 4) })
    }
    return Data(w.file)
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func seconds(_ d: Duration) -> Double { d.secondsValue }

/// CPU time of the calling thread, in seconds (a busy machine stretches wall time, not this).
func threadCPU() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

let clock = ContinuousClock()
let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
print("zoetrope-loader-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(load)")

// 1. Memory-cache hit.
if parts.contains("hits") {
    let small = noiseGIF(side: 64, frames: 4, seed: 1)
    server.serve("hit.gif", .ok(small))
    let memoryLoader = AnimatedImageLoader(configuration: .init(memoryCacheLimit: 64 << 20, diskCache: nil, memoryPressure: nil))
    let hitURL = server.url("hit.gif")
    _ = try await memoryLoader.image(for: hitURL)
    var hitTimes: [Double] = [], hitCPU: [Double] = []
    var found = 0
    for _ in 0..<rounds {
        let cpu = threadCPU()
        let elapsed = clock.measure {
            for _ in 0..<hits where memoryLoader.cachedImage(for: hitURL) != nil { found += 1 }
        }
        hitCPU.append((threadCPU() - cpu) / Double(hits) * 1e9)
        hitTimes.append(seconds(elapsed) / Double(hits) * 1e9)
}
precondition(found == hits * rounds)
print(String(format: "memory-cache hit: %.0f ns of CPU per call, %.0f ns wall (medians of %d rounds of %d calls)",
             median(hitCPU), median(hitTimes), rounds, hits))
}

// 2. Disk-cache hit, first frame, against the local file.
if parts.contains("disk") {
    let large = noiseGIF(side: 480, frames: 12, seed: 2)
    server.serve("disk.gif", .ok(large, headers: [("Cache-Control", "max-age=3600")]))
    let local = folder.appendingPathComponent("local.gif")
    try large.write(to: local)
    let diskConfiguration = DiskCache.Configuration(folder: folder.appendingPathComponent("cache"), sizeLimit: 256 << 20)
    let diskURL = server.url("disk.gif")
    _ = try await AnimatedImageLoader(configuration: .init(memoryCacheLimit: 0, diskCache: diskConfiguration, memoryPressure: nil))
        .image(for: diskURL)
    var diskTimes: [Double] = [], fileTimes: [Double] = []
    for round in 0..<(rounds * 3) {
        // A new loader each time: nothing in memory, as after a relaunch.
        let loader = AnimatedImageLoader(configuration: .init(memoryCacheLimit: 0, diskCache: diskConfiguration, memoryPressure: nil))
        let measureDisk = {
            let start = clock.now
            let image = try await loader.image(for: diskURL)
            precondition(image.poster.width == 480)
            diskTimes.append(seconds(clock.now - start) * 1e3)
        }
        let measureFile = {
            let start = clock.now
            let image = try AnimatedImage(contentsOf: local)
            precondition(image.poster.width == 480)
            fileTimes.append(seconds(clock.now - start) * 1e3)
        }
        if round % 2 == 0 { try await measureDisk(); try measureFile() } else { try measureFile(); try await measureDisk() }
}
precondition(server.requestCount("disk.gif") == 1, "a disk-cache hit asked the server")
print(String(format: "first frame of a %d-byte 480x480 GIF: disk-cache hit %.2f ms, local file %.2f ms (%.2fx), medians of %d",
             large.count, median(diskTimes), median(fileTimes), median(diskTimes) / median(fileTimes), diskTimes.count))
}

// 3. 64 concurrent requests for 8 URLs.
if parts.contains("concurrent") {
    let files = (0..<8).map { noiseGIF(side: 200, frames: 5, seed: 10 + UInt64($0)) }
    for (i, file) in files.enumerated() { server.serve("c\(i).gif", LoopbackHTTPResponse.ok(file)) }
    func concurrentURLs(_ prefix: String) -> [URL] {
        for (i, file) in files.enumerated() { server.serve("\(prefix)\(i).gif", LoopbackHTTPResponse.ok(file)) }
        return (0..<64).map { server.url("\(prefix)\($0 % 8).gif") }
}
func downloads(_ prefix: String) -> Int { (0..<8).reduce(0) { $0 + server.requestCount("\(prefix)\($1).gif") } }

var loaderWall: [Double] = [], plainWall: [Double] = []
var loaderDownloads: [Int] = [], plainDownloads: [Int] = []
for round in 0..<rounds {
    let loaderURLs = concurrentURLs("l\(round)-"), plainURLs = concurrentURLs("p\(round)-")
    let runLoader = {
        let loader = AnimatedImageLoader(configuration: .init(memoryCacheLimit: 64 << 20, diskCache: nil, memoryPressure: nil))
        let start = clock.now
        try await withThrowingTaskGroup(of: Int.self) { group in
            for url in loaderURLs { group.addTask { try await loader.image(for: url).info.frameCount } }
            for try await frames in group { precondition(frames == 5) }
        }
        loaderWall.append(seconds(clock.now - start) * 1e3)
        loaderDownloads.append(downloads("l\(round)-"))
    }
    let runPlain = {
        let start = clock.now
        try await withThrowingTaskGroup(of: Int.self) { group in
            for url in plainURLs {
                group.addTask { try AnimatedImage(data: try await URLSession.shared.data(from: url).0).info.frameCount }
            }
            for try await frames in group { precondition(frames == 5) }
        }
        plainWall.append(seconds(clock.now - start) * 1e3)
        plainDownloads.append(downloads("p\(round)-"))
    }
    if round % 2 == 0 { try await runLoader(); try await runPlain() } else { try await runPlain(); try await runLoader() }
}
print(String(format: "64 requests for 8 URLs (%d-byte GIFs, decoded): loader %d downloads %.1f ms; URLSession.shared.data(from:) + decode %d downloads %.1f ms (medians of %d)",
             files[0].count, loaderDownloads.max() ?? 0, median(loaderWall), plainDownloads.max() ?? 0, median(plainWall), rounds))
}
// 4. 100 displays over 10 URLs.
@MainActor final class CountingDisplay: AnimationDisplay {
    var shown = 0
    var isVisible = true
    func show(_ frame: PixelBuffer, index: Int) { shown += 1 }
}

/// The process's peak resident memory in MiB (VmHWM).
func peakMiB() -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
}

for part in ["views-load", "views-player"] where parts.contains(part) {
    let files = (0..<urlCount).map { noiseGIF(side: 160, frames: 12, seed: 40 + UInt64($0)) }
    for (i, file) in files.enumerated() { server.serve("v\(i).gif", LoopbackHTTPResponse.ok(file)) }
    let loader = AnimatedImageLoader(configuration: .init(memoryCacheLimit: 64 << 20, diskCache: nil, memoryPressure: nil))
    let displays = (0..<100).map { _ in CountingDisplay() }
    var players: [AnimationPlayer] = []
    let start = clock.now
    if part == "views-load" {
        for (i, display) in displays.enumerated() { loader.load(server.url("v\(i % urlCount).gif"), into: display) }
    } else {
        // One after another: each waits for its URL's first frame (the first of each URL
        // starts its download; the rest join it or find the image in memory).
        for (i, display) in displays.enumerated() {
            let player = try await loader.player(for: server.url("v\(i % urlCount).gif"), display: display)
            player.play()
            players.append(player)
        }
    }
    try await Task.sleep(for: .seconds(2))
    let shown = displays.map(\.shown)
    let downloads = (0..<urlCount).reduce(0) { $0 + server.requestCount("v\($1).gif") }
    let decoders = part == "views-load" ? loader.views.counts.playbacks : players.count
    print(String(format: "%@: 100 displays, %d URLs of %d-byte 160x160 GIFs: %d downloads, %d players, frames shown per display %d-%d, %.1f s, peak %.0f MiB",
                 part, urlCount, files[0].count, downloads, decoders, shown.min() ?? 0, shown.max() ?? 0, seconds(clock.now - start), peakMiB()))
    for display in displays { loader.cancelLoad(for: display) }
    for player in players { player.stop() }
}
if parts.contains("endless") {
    server.serveEndless("endless.gif", chunk: 256 << 10)
    var configuration = AnimatedImageLoader.Configuration(memoryCacheLimit: 64 << 20, diskCache: nil, memoryPressure: nil)
    configuration.maximumResponseBytes = 16 << 20
    if transport == "urlsession" { configuration.sessionConfiguration = .default }
    let loader = AnimatedImageLoader(configuration: configuration)
    let start = clock.now
    var outcome = "loaded"
    do { _ = try await loader.image(for: server.url("endless.gif")) } catch { outcome = "\(error)" }
    print(String(format: "endless (%@ transport): maximumResponseBytes 16 MiB: %@ after %.2f s, peak %.0f MiB", transport, outcome, seconds(clock.now - start), peakMiB()))
}
server.stop()

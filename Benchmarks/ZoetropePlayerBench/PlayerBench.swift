// FoundationEssentials only (no Thread, no String(format:)), so that the peak RSS measured
// is the library's, not this program's Foundation.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Zoetrope
import ZoetropeDemo
import ZoetropeProcessStats

/// One benchmark configuration's run and its measurements.
struct PlayerBench {
    var players: Int
    var sharedImage: Bool
    var seconds: Double
    var hertz: Int
    var workers: Int

    struct Result {
        var cpuSecondsPerPlayer: Double
        var framesShown: Int
        var expectedFrames: Int
        var lateTicks: Int
        var stallEpisodes: Int
        var clockLateTicks: Int
        var clockDroppedTicks: Int
        var decodes: Int
        var decodesPerFramePerLoop: Double
        var peakPixelBytes: Int
        var peakResidentBytes: Int
        var threads: Int
    }

    func run() throws -> Result {
        let clock = TimerClock(rate: .fixed(hertz: hertz))
        let pool = DecodeWorkerPool(workerCount: workers)
        let cache = SharedFrameCache()
        var list: [AnimationPlayer] = []
        var displays: [CountingDisplay] = []
        for i in 0..<players {
            let policy: any FrameBufferPolicy = sharedImage
                ? SharedBufferPolicy(cache: cache, imageKey: "demo", framesAhead: 2)
                : AheadBufferPolicy(framesAhead: 1)
            let display = CountingDisplay()
            // Distinct images: each player its own source and frames; nothing is shared.
            let source = try DemoAnimation.makeFrameSource()
            let p = AnimationPlayer(source: source, clock: clock, display: display,
                                    configuration: PlayerConfiguration(bufferPolicy: policy, executor: pool, memoryPressure: nil))
            _ = i
            p.prepare()
            list.append(p)
            displays.append(display)
        }
        // Start together, so that players of one image stay in step.
        while !list.allSatisfy({ $0.poster != nil }) { usleep(10_000) }
        let rssBefore = (ProcessStats.residentBytes() ?? 0)
        let cpu0 = ProcessStats.cpuSeconds()
        let decodes0 = list.map { $0.diagnostics.framesDecoded }.reduce(0, +)
        for p in list { p.play() }
        let clockStart = ContinuousClock.now
        var peakRSS = rssBefore
        var peakPixels = 0
        while ContinuousClock.now - clockStart < .seconds(seconds) {
            usleep(50_000)
            peakRSS = max(peakRSS, (ProcessStats.residentBytes() ?? 0))
            // Pixel bytes held: each player's own buffers; for one image, the cache's frames
            // (players' posters and windows are leases on the cache's storage).
            var pixels = sharedImage ? cache.bytesHeld : 0
            if !sharedImage { for p in list { pixels += p.diagnostics.bytesHeld } }
            peakPixels = max(peakPixels, pixels)
        }
        for p in list { p.pause() }
        let cpu = ProcessStats.cpuSeconds() - cpu0
        clock.invalidate()
        let diags = list.map(\.diagnostics)
        let decodes = diags.map(\.framesDecoded).reduce(0, +) - decodes0
        let loops = seconds / DemoAnimation.frameDuration.seconds / Double(DemoAnimation.frameCount)
        let result = Result(
            cpuSecondsPerPlayer: cpu / Double(players),
            framesShown: displays.map(\.framesShown).reduce(0, +),
            expectedFrames: Int(seconds / DemoAnimation.frameDuration.seconds) * players,
            lateTicks: diags.map(\.stalledTicks).reduce(0, +),
            stallEpisodes: diags.map(\.stallEpisodes).reduce(0, +),
            clockLateTicks: clock.lateTicks,
            clockDroppedTicks: clock.droppedTicks,
            decodes: decodes,
            decodesPerFramePerLoop: Double(decodes) / Double(DemoAnimation.frameCount) / loops,
            peakPixelBytes: peakPixels,
            peakResidentBytes: peakRSS,
            threads: pool.threadsStarted + 1)
        for p in list { p.prepareForReuse() }
        return result
    }
}

// Benchmark driver for Scripts/bench-webp.sh: decodes every frame of a WebP file with
// ZoetropeWebP exactly as /work/shared/bench/ref/harness.h does with libwebp's
// WebPAnimDecoder (fresh decoder per loop, file read each loop, every frame checksummed
// with the same word sum), and prints one JSON line with the same fields.
//
//   bench-webp [-k LOOPS] FILE              throughput
//   bench-webp --seek N FILE                random-access cost (N random targets)
import Foundation
import Zoetrope
import ZoetropeWebP

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func frameSum(_ b: [UInt8]) -> UInt64 {
    b.withUnsafeBytes { raw -> UInt64 in
        var s0: UInt64 = 0, s1: UInt64 = 0, s2: UInt64 = 0, s3: UInt64 = 0
        let n = raw.count
        var i = 0
        while i + 32 <= n {
            s0 &+= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian
            s1 &+= raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self).littleEndian
            s2 &+= raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self).littleEndian
            s3 &+= raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self).littleEndian
            i += 32
        }
        while i + 8 <= n {
            s0 &+= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian
            i += 8
        }
        if i < n {
            var tail: UInt64 = 0
            for j in 0..<(n - i) { tail |= UInt64(raw[i + j]) << (8 * UInt64(j)) }
            s0 &+= tail
        }
        return s0 &+ s1 &+ s2 &+ s3
    }
}

func cpuSeconds() -> (Double, Int) {
    var ru = rusage()
    getrusage(RUSAGE_SELF.rawValue, &ru) // Glibc imports the enum, getrusage takes its raw value
    let cpu = Double(ru.ru_utime.tv_sec) + Double(ru.ru_utime.tv_usec) * 1e-6
        + Double(ru.ru_stime.tv_sec) + Double(ru.ru_stime.tv_usec) * 1e-6
    return (cpu, ru.ru_maxrss)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench-webp: \(message)\n".utf8))
    exit(1)
}

var args = Array(CommandLine.arguments.dropFirst())
var loops = 1, seekTargets = 0
while let first = args.first, first.hasPrefix("-") {
    args.removeFirst()
    guard let value = args.first.flatMap(Int.init) else { fail("\(first) needs a number") }
    args.removeFirst()
    switch first {
    case "-k": loops = value
    case "--seek": seekTargets = value
    default: fail("unknown option \(first)")
    }
}
guard args.count == 1, loops >= 1 else { fail("usage: bench-webp [-k LOOPS] [--seek N] FILE") }
let path = args[0]
let coder = WebPCoder()

func open() -> any FrameSource {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    do { return try coder.makeFrameSource(data: data, options: .default) } catch { fail("\(path): \(error)") }
}

if seekTargets > 0 {
    // Random access: for each target t (deterministic pseudo-random, after the source sits
    // on another random frame), the time of decodeFrame(at: t), against the time of
    // decoding frames key(t)…t one by one on a fresh source (what "decode from the nearest
    // independent frame" costs) and frames 0…t (what a decoder without seeking, such as
    // libwebp's WebPAnimDecoder, costs). When key(t) == 0 the last two are the same work.
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    let keys = (try? coder.keyFrameIndices(in: data)) ?? [0]
    let source = open()
    let n = source.info.frameCount
    var rng: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Int {
        rng = rng &* 6364136223846793005 &+ 1442695040888963407
        return Int((rng >> 33) % UInt64(n))
    }
    var buffer = PixelBuffer()
    var seek: [Double] = [], fromKey: [Double] = [], fromStart: [Double] = [], spans: [Int] = []
    // Each measurement is the best of three, so a preempted run does not count.
    for _ in 0..<seekTargets {
        let from = next(), t = next()
        let key = keys.last { $0 <= t } ?? 0
        spans.append(t - key + 1)
        var best = (Double.infinity, Double.infinity, Double.infinity)
        do {
            for _ in 0..<3 {
                try source.decodeFrame(at: from, into: &buffer)
                let t0 = now()
                try source.decodeFrame(at: t, into: &buffer)
                best.0 = min(best.0, now() - t0)
                for start in [key, 0] {
                    let fresh = open()
                    let t1 = now()
                    for i in start...t { try fresh.decodeFrame(at: i, into: &buffer) }
                    if start == key { best.1 = min(best.1, now() - t1) }
                    if start == 0 { best.2 = min(best.2, now() - t1) }
                }
            }
        } catch { fail("\(path): \(error)") }
        seek.append(best.0); fromKey.append(best.1); fromStart.append(best.2)
    }
    func median(_ v: [Double]) -> Double { let s = v.sorted(); return s[s.count / 2] * 1e3 }
    let meanSpan = Double(spans.reduce(0, +)) / Double(spans.count)
    print("{\"decoder\":\"zoetrope-webp-seek\",\"file\":\"\(path)\",\"frames\":\(n),\"keyFrames\":\(keys.count),"
          + "\"targets\":\(seekTargets),\"meanFramesFromKey\":\(String(format: "%.2f", meanSpan)),"
          + "\"seekMedianMs\":\(String(format: "%.3f", median(seek))),"
          + "\"fromKeyMedianMs\":\(String(format: "%.3f", median(fromKey))),"
          + "\"fromStartMedianMs\":\(String(format: "%.3f", median(fromStart)))}")
    exit(0)
}

var firstMs = -1.0, checksum: UInt64 = 0, framesTotal = 0, framesPerLoop = -1
var width = 0, height = 0
var buffer = PixelBuffer()
let t0 = now()
for k in 0..<loops {
    let source = open()
    width = source.info.canvasSize.width
    height = source.info.canvasSize.height
    var c: UInt64 = 0
    for i in 0..<source.info.frameCount {
        do { try source.decodeFrame(at: i, into: &buffer) } catch { fail("\(path): frame \(i): \(error)") }
        if k == 0 && i == 0 { firstMs = (now() - t0) * 1e3 }
        c = c &* 1000003 &+ frameSum(buffer.bytes)
    }
    if framesPerLoop < 0 { framesPerLoop = source.info.frameCount; checksum = c }
    else if c != checksum { fail("loop \(k) differs") }
    framesTotal += source.info.frameCount
}
let dt = now() - t0
let t1 = now()
do { _ = try open().decodeFrame(at: 0) } catch { fail("\(error)") }
let warmMs = (now() - t1) * 1e3
let (cpu, rss) = cpuSeconds()
let mp = Double(width * height) / 1e6
print("{\"decoder\":\"zoetrope-webp\",\"file\":\"\(path)\",\"w\":\(width),\"h\":\(height),\"frames\":\(framesPerLoop),"
      + "\"loops\":\(loops),\"first_frame_ms\":\(String(format: "%.3f", firstMs)),"
      + "\"first_frame_warm_ms\":\(String(format: "%.3f", warmMs)),\"decode_s\":\(String(format: "%.6f", dt)),"
      + "\"fps\":\(String(format: "%.2f", Double(framesTotal) / dt)),\"mpps\":\(String(format: "%.2f", Double(framesTotal) * mp / dt)),"
      + "\"cpu_s\":\(String(format: "%.3f", cpu)),\"maxrss_kb\":\(rss),\"checksum\":\"\(String(format: "%016llx", checksum))\"}")

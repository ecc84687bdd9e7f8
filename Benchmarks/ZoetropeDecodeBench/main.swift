import Zoetrope
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeBuiltInCoders
import ZoetropeGIF
import ZoetropeProcessStats
import ZoetropeWebP

// zoetrope-decode-bench: decodes every frame of an animated image K times through a
// CoderRegistry holding the four built-in coders, measured exactly as
// ../shared/bench/ref/harness.h measures its C decoders, and prints one JSON line with the
// same fields and the same checksum (identical pixels → identical checksum).
//
//   zoetrope-decode-bench [-k LOOPS] [-t THREADS] [--mmap] [--bulk] [--size WxH] FILE
//   zoetrope-decode-bench --seek N [-t THREADS] [--mmap] FILE
//   zoetrope-decode-bench --open first|info|all [--plain PATHS] [--force PATHS] [--mmap] FILE
//
// Throughput (as harness.h): each loop reads FILE from its path and makes a fresh frame
// source, decodes frames 0..<n in order into one reused PixelBuffer and checksums every
// frame (per frame the sum of its little-endian UInt64 words mod 2^64, tail zero-padded;
// folded c = c·1000003 + s). first_frame_ms: loop 1's read + open + first frame;
// decode_s: all K loops; first_frame_warm_ms: one more read + open + first frame after the
// loops; cpu_s: getrusage at exit; maxrss_kb: the peak resident size at exit (VmHWM, the
// value getrusage reports on Linux); both for the whole process, as harness.h.
// Extra fields: loop_cpu_s (CPU of the K loops only, comparable with Pillow's cpu_s, which
// counts its loops only), rss_start_kb (resident memory before any file is read: the Swift
// runtime + Foundation floor), mmap, format.
//
// --bulk decodes each loop's frames with a BulkFrameDecoder (the bulk path: payloads on
// worker threads, compositing in order) on -t threads (default: the cores the process may
// use); "threads" then reports the threads the run started, "bulk" is true, and
// "bulk_fallbacks" counts the loops whose run stopped its workers for want of cores.
//
// --size WxH decodes at DecodingOptions.targetSize (the checksum is then the scaled
// frames', which no C harness makes): for the memory a decode at a small size holds.
//
// -t sets DecodingOptions.threadCount (AVIF; -1 or absent = the coder's default, printed
// as "threads":-1 like harness.h). --mmap maps the file (Data .alwaysMapped) instead of
// reading it.
//
// --seek N: random access. N targets t from a fixed-seed generator; for each, the source
// first sits on another random frame, then decodeFrame(at: t) is timed, against a fresh
// source decoding 0...t in order (what a decoder without seeking costs). Each time is the
// best of three (a preempted run does not count); medians in ms. For WebP the key frames
// are counted too (a WebP source restarts from the nearest key frame).
//
// --plain PATHS switches fast paths off (a comma-separated list of DecoderTuning.FastPath
// names, or "all"), for measuring each against the plain path in the same run
// (Scripts/bench-fast-paths.sh); --force PATHS sets their size thresholds to zero, for
// measuring what a threshold keeps out. --open STOP times one open in a fresh process, each mark
// from the start of the read: open_ms (the source made), first_frame_ms (frame 0 decoded,
// info not asked), then, up to STOP, info_ms (the frame count known) and all_ms (every
// frame decoded in order); marks past STOP are -1.
// FoundationEssentials only (no FileHandle, no String(format:)), so that rss_start_kb is
// the floor of the library, not of this program.
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

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Sum of the buffer's little-endian 64-bit words (mod 2^64, tail zero-padded), as harness.h.
func frameSum(_ bytes: [UInt8]) -> UInt64 {
    bytes.withUnsafeBytes { raw -> UInt64 in
        var s0: UInt64 = 0, s1: UInt64 = 0, s2: UInt64 = 0, s3: UInt64 = 0
        let n = raw.count
        var i = 0
        while i + 32 <= n {
            s0 &+= UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            s1 &+= UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
            s2 &+= UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self))
            s3 &+= UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self))
            i += 32
        }
        while i + 8 <= n {
            s0 &+= UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        if i < n {
            var tail: UInt64 = 0
            for k in 0..<(n - i) { tail |= UInt64(raw[i + k]) << (8 * UInt64(k)) }
            s0 &+= tail
        }
        return s0 &+ s1 &+ s2 &+ s3
    }
}

func fail(_ message: String, status: Int32 = 1) -> Never {
    let bytes = Array("zoetrope-decode-bench: \(message)\n".utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(status)
}

/// `value` with `digits` decimals (as "%.*f" for the magnitudes printed here).
func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
    var scale: UInt64 = 1
    for _ in 0..<digits { scale *= 10 }
    let n = UInt64((abs(value) * Double(scale)).rounded())
    let sign = value < 0 && n > 0 ? "-" : ""
    guard digits > 0 else { return sign + String(n) }
    return sign + String(n / scale) + "." + padded(n % scale, width: digits, radix: 10)
}

/// `value` in `radix`, zero-padded to `width` digits.
func padded(_ value: UInt64, width: Int, radix: Int = 16) -> String {
    let digits = String(value, radix: radix)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// A JSON string literal (file paths may hold quotes or backslashes).
func quoted(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20: out += "\\u" + padded(UInt64(scalar.value), width: 4)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

let rssStartKB = ProcessStats.residentBytes().map { $0 / 1024 } ?? -1
let usage =
    "usage: zoetrope-decode-bench [-k LOOPS] [-t THREADS] [--mmap] [--bulk] [--size WxH] [--seek N] [--open first|info|all] [--plain PATHS] [--force PATHS] FILE"
var targetSize: PixelSize?
var loops = 1, threads: Int?, mapped = false, bulk = false, seekTargets = 0, opening: String?, path: String?
var plainPaths: [DecoderTuning.FastPath] = [], forcedPaths: [DecoderTuning.FastPath] = []
var args = CommandLine.arguments.dropFirst()
while let arg = args.popFirst() {
    switch arg {
    case "-k", "-t", "--seek":
        guard let value = args.popFirst().flatMap({ Int($0) }) else { fail("\(arg) needs a number\n\(usage)", status: 2) }
        if arg == "-k" { loops = value } else if arg == "-t" { threads = value < 0 ? nil : value } else { seekTargets = value }
    case "--size":
        let parts = args.popFirst()?.split(separator: "x").compactMap { Int($0) } ?? []
        guard parts.count == 2, parts.allSatisfy({ $0 > 0 }) else { fail("--size needs WxH, for example 320x320\n\(usage)", status: 2) }
        targetSize = PixelSize(width: parts[0], height: parts[1])
    case "--mmap":
        mapped = true
    case "--bulk":
        bulk = true
    case "--open":
        guard let stop = args.popFirst(), ["first", "info", "all"].contains(stop) else {
            fail("--open needs first, info or all\n\(usage)", status: 2)
        }
        opening = stop
    case "--plain", "--force":
        guard let list = args.popFirst() else { fail("\(arg) needs a list of paths\n\(usage)", status: 2) }
        for name in list.split(separator: ",") {
            let paths: [DecoderTuning.FastPath]
            if name == "all" {
                paths = DecoderTuning.FastPath.builtIn
            } else if let path = DecoderTuning.FastPath.builtIn.first(where: { $0.name == name }) {
                paths = [path]
            } else {
                let known = DecoderTuning.FastPath.builtIn.map(\.name).joined(separator: ", ")
                fail("unknown path \(name) (\(known), all)", status: 2)
            }
            if arg == "--plain" { plainPaths += paths } else { forcedPaths += paths }
        }
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        guard !arg.hasPrefix("-"), path == nil else { fail("unexpected \(arg)\n\(usage)", status: 2) }
        path = arg
    }
}
guard let path, loops >= 1, seekTargets >= 0 else { fail(usage, status: 2) }

let registry = CoderRegistry(builtIn: [GIFCoder(), APNGCoder(), WebPCoder(), AVIFCoder()])
var options = DecodingOptions(targetSize: targetSize, threadCount: threads)
options.tuning = options.tuning.forcing(forcedPaths).without(plainPaths)
let plainNames = "[" + plainPaths.map { quoted($0.name) }.joined(separator: ",") + "]"
let forcedNames = "[" + forcedPaths.map { quoted($0.name) }.joined(separator: ",") + "]"
let url = URL(fileURLWithPath: path)

@MainActor func readFile() -> Data {
    do { return try Data(contentsOf: url, options: mapped ? .alwaysMapped : []) } catch { fail("cannot read \(path): \(error)") }
}

/// Reads the file and opens a fresh source, as harness.h's anim_open does.
@MainActor func openSource() -> any FrameSource {
    let data = readFile()
    do { return try registry.makeFrameSource(data: data, options: options) } catch { fail("\(path): \(error)") }
}

// The format from the file's first bytes only, so naming the decoder reads no more than that.
let formatName: String = {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { fail("cannot read \(path)") }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: max(registry.sniffLength, 64))
    let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    let prefix = Data(bytes.prefix(max(0, count)))
    guard let format = registry.format(of: prefix) else { fail("\(path): no built-in coder recognises it") }
    return format.identifier
}()
let decoderName = "zoetrope-\(formatName)"

if let opening {
    var buffer = PixelBuffer()
    let cpu0 = ProcessStats.cpuSeconds()
    let t0 = now()
    let source = openSource()
    let openMs = (now() - t0) * 1e3
    do { try source.decodeFrame(at: 0, into: &buffer) } catch { fail("\(path): frame 0: \(error)") }
    let firstMs = (now() - t0) * 1e3
    var n = -1, infoMs = -1.0, allMs = -1.0
    if opening != "first" {
        n = source.info.frameCount
        infoMs = (now() - t0) * 1e3
    }
    if opening == "all" {
        for i in 1..<max(1, n) {
            do { try source.decodeFrame(at: i, into: &buffer) } catch { fail("\(path): frame \(i): \(error)") }
        }
        allMs = (now() - t0) * 1e3
    }
    print(
        "{\"decoder\":\(quoted(decoderName)),\"mode\":\"open\",\"file\":\(quoted(path)),\"frames\":\(n),\"plain\":\(plainNames),\"forced\":\(forcedNames),"
            + "\"open_ms\":\(fixed(openMs, 3)),\"first_frame_ms\":\(fixed(firstMs, 3)),\"info_ms\":\(fixed(infoMs, 3)),"
            + "\"all_ms\":\(fixed(allMs, 3)),\"cpu_s\":\(fixed(ProcessStats.cpuSeconds() - cpu0, 3)),\"mmap\":\(mapped)}")
    exit(0)
}

if seekTargets > 0 {
    let source = openSource()
    let n = source.info.frameCount
    guard n > 0 else { fail("\(path): no frames") }
    var keyFrames: Int?
    if formatName == "webp" { keyFrames = (try? WebPCoder().keyFrameIndices(in: readFile()))?.count }
    var rng: UInt64 = 0x9E37_79B9_7F4A_7C15
    func nextFrame() -> Int {
        rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((rng >> 33) % UInt64(n))
    }
    var buffer = PixelBuffer()
    var seeks: [Double] = [], fromStart: [Double] = []
    do {
        for _ in 0..<seekTargets {
            let from = nextFrame(), target = nextFrame()
            var bestSeek = Double.infinity, bestStart = Double.infinity
            for _ in 0..<3 {
                try source.decodeFrame(at: from, into: &buffer)
                let t0 = now()
                try source.decodeFrame(at: target, into: &buffer)
                bestSeek = min(bestSeek, now() - t0)
                let fresh = openSource()
                let t1 = now()
                for i in 0...target { try fresh.decodeFrame(at: i, into: &buffer) }
                bestStart = min(bestStart, now() - t1)
            }
            seeks.append(bestSeek)
            fromStart.append(bestStart)
        }
    } catch {
        fail("\(path): \(error)")
    }
    func medianMs(_ values: [Double]) -> Double {
        let s = values.sorted()
        return (s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2) * 1e3
    }
    let seekMs = medianMs(seeks), startMs = medianMs(fromStart)
    print(
        "{\"decoder\":\(quoted(decoderName)),\"mode\":\"seek\",\"file\":\(quoted(path)),\"frames\":\(n),"
            + "\"key_frames\":\(keyFrames.map(String.init) ?? "null"),\"seeks\":\(seekTargets),\"seed\":\"9e3779b97f4a7c15\","
            + "\"seek_median_ms\":\(fixed(seekMs, 3)),\"from_start_median_ms\":\(fixed(startMs, 3)),"
            + "\"speedup\":\(fixed(startMs / max(seekMs, 1e-9), 2))}")
    exit(0)
}

var buffer = PixelBuffer()
var firstMs = -1.0, checksum: UInt64 = 0
var framesTotal = 0, framesPerLoop = -1
var size = PixelSize(width: 0, height: 0)
var bulkThreads = -1, bulkFallbacks = 0
let t0 = now(), cpu0 = ProcessStats.cpuSeconds()
for k in 0..<loops {
    let source = openSource()
    size = source.outputSize
    let n = source.info.frameCount
    var c: UInt64 = 0
    if bulk {
        let run = BulkFrameDecoder(source: source, threads: threads)
        bulkThreads = run.threadCount
        defer { if run.fellBackToOneThread { bulkFallbacks += 1 } }
        do {
            while let i = try run.nextFrame(into: &buffer) {
                if k == 0, i == 0 { firstMs = (now() - t0) * 1e3 }
                c = c &* 1_000_003 &+ frameSum(buffer.bytes)
            }
        } catch {
            fail("\(path): loop \(k): \(error)")
        }
    } else {
        for i in 0..<n {
            do { try source.decodeFrame(at: i, into: &buffer) } catch { fail("\(path): frame \(i) of loop \(k): \(error)") }
            if k == 0, i == 0 { firstMs = (now() - t0) * 1e3 }
            c = c &* 1_000_003 &+ frameSum(buffer.bytes)
        }
    }
    if framesPerLoop < 0 {
        framesPerLoop = n
        checksum = c
    } else if n != framesPerLoop || c != checksum {
        fail("loop \(k) differs (frames \(n) vs \(framesPerLoop))")
    }
    framesTotal += n
}
let dt = now() - t0, loopCPU = ProcessStats.cpuSeconds() - cpu0

// Warm time to first frame: one more read + open + first frame, not part of decode_s.
let t1 = now()
do { try openSource().decodeFrame(at: 0, into: &buffer) } catch { fail("\(path): warm frame 0: \(error)") }
let warmMs = (now() - t1) * 1e3

let cpu = ProcessStats.cpuSeconds()
let mp = Double(size.width * size.height) / 1e6
print(
    "{\"decoder\":\(quoted(decoderName)),\"file\":\(quoted(path)),\"w\":\(size.width),\"h\":\(size.height),"
        + "\"frames\":\(framesPerLoop),\"loops\":\(loops),\"threads\":\(bulk ? bulkThreads : threads ?? -1),"
        + "\"first_frame_ms\":\(fixed(firstMs, 3)),\"first_frame_warm_ms\":\(fixed(warmMs, 3)),"
        + "\"decode_s\":\(fixed(dt, 6)),\"fps\":\(fixed(Double(framesTotal) / dt, 2)),"
        + "\"mpps\":\(fixed(Double(framesTotal) * mp / dt, 2)),\"cpu_s\":\(fixed(cpu, 3)),"
        + "\"maxrss_kb\":\(ProcessStats.peakResidentBytes() / 1024),\"checksum\":\"\(padded(checksum, width: 16))\","
        + "\"loop_cpu_s\":\(fixed(loopCPU, 3)),\"rss_start_kb\":\(rssStartKB),\"mmap\":\(mapped),\"bulk\":\(bulk),\"bulk_fallbacks\":\(bulkFallbacks),\"format\":\(quoted(formatName)),\"plain\":\(plainNames),\"forced\":\(forcedNames)}"
)

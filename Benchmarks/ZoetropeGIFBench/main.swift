// Decodes every frame of a GIF K times with GIFCoder, measured the way
// ../shared/bench/ref/harness.h measures its C decoders, and prints one JSON line with
// the same fields and the same checksum (identical pixels → identical checksum).
//
//   ZoetropeGIFBench [-k LOOPS] [--mmap] FILE
//
// --mmap maps the file (Data .alwaysMapped) instead of reading it; rss_start_kb is the
// process's resident memory before any file is read (Swift runtime + Foundation).
import Foundation
import Zoetrope
import ZoetropeGIF

#if canImport(Glibc)
import Glibc
#endif

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Sum of the buffer's little-endian 64-bit words (mod 2^64, tail zero-padded), as harness.h.
func frameSum(_ bytes: [UInt8]) -> UInt64 {
    bytes.withUnsafeBytes { raw in
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
        var s = s0 &+ s1 &+ s2 &+ s3
        while i + 8 <= n {
            s &+= UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        if i < n {
            var tail: UInt64 = 0
            for k in 0..<(n - i) { tail |= UInt64(raw[i + k]) << (8 * UInt64(k)) }
            s &+= tail
        }
        return s
    }
}

/// Resident memory now, from /proc/self/status (the process's floor before any file is read).
func residentKB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
    return -1
}

let rssStartKB = residentKB()
var loops = 1
var mapped = false
var path: String?
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    if a == "-k", let v = args.popFirst(), let k = Int(v), k >= 1 {
        loops = k
    } else if a == "--mmap" {
        mapped = true
    } else {
        path = a
    }
}
guard let path else {
    FileHandle.standardError.write(Data("usage: ZoetropeGIFBench [-k loops] file\n".utf8))
    exit(2)
}

let coder = GIFCoder()
var buffer = PixelBuffer()
var firstMs = -1.0, checksum: UInt64 = 0
var framesTotal = 0, framesPerLoop = -1
var size = PixelSize(width: 0, height: 0)
let t0 = now()
do {
    for k in 0..<loops {
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: mapped ? .alwaysMapped : [])
        let source = try coder.makeFrameSource(data: data, options: .default)
        size = source.info.canvasSize
        var c: UInt64 = 0
        for i in 0..<source.info.frameCount {
            try source.decodeFrame(at: i, into: &buffer)
            if k == 0, i == 0 { firstMs = (now() - t0) * 1e3 }
            c = c &* 1_000_003 &+ frameSum(buffer.bytes)
        }
        let n = source.info.frameCount
        if framesPerLoop < 0 {
            framesPerLoop = n
            checksum = c
        } else if n != framesPerLoop || c != checksum {
            FileHandle.standardError.write(Data("zoetrope-gif: loop \(k) differs\n".utf8))
            exit(1)
        }
        framesTotal += n
    }
} catch {
    FileHandle.standardError.write(Data("zoetrope-gif: \(path): \(error)\n".utf8))
    exit(1)
}
let dt = now() - t0
// Peak memory of the loops, before the warm first-frame run below adds a second session.
var usage = rusage()
getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
let peakKB = usage.ru_maxrss
let t1 = now()
let warm = try GIFCoder().makeFrameSource(data: Data(contentsOf: URL(fileURLWithPath: path)), options: .default)
_ = try warm.decodeFrame(at: 0)
let warmMs = (now() - t1) * 1e3
getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
let mp = Double(size.width * size.height) / 1e6
let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
    + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) * 1e-6
func fmt(_ v: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", v) }
print("{\"decoder\":\"\(mapped ? "zoetrope-gif-mmap" : "zoetrope-gif")\",\"file\":\"\(path)\",\"w\":\(size.width),\"h\":\(size.height),\"frames\":\(framesPerLoop),"
    + "\"loops\":\(loops),\"first_frame_ms\":\(fmt(firstMs, 3)),\"first_frame_warm_ms\":\(fmt(warmMs, 3)),"
    + "\"decode_s\":\(fmt(dt, 6)),\"fps\":\(fmt(Double(framesTotal) / dt, 2)),\"mpps\":\(fmt(Double(framesTotal) * mp / dt, 2)),"
    + "\"cpu_s\":\(fmt(cpu, 3)),\"maxrss_kb\":\(peakKB),\"rss_start_kb\":\(rssStartKB),\"mmap\":\(mapped),\"checksum\":\"\(String(format: "%016llx", checksum))\"}")

// Mirrors ../shared/bench/ref/harness.h: each loop reads FILE from its path, makes a fresh
// AVIF frame source, decodes every frame in order into one reused buffer and checksums it
// (sum of little-endian UInt64 words per frame, folded c = c·1000003 + s), so identical
// pixels give the C reference's checksum. Usage: zoetrope-avif-bench [-k LOOPS] [-t THREADS] FILE
import Foundation
import Zoetrope
import ZoetropeAVIF

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func frameSum(_ buffer: PixelBuffer) -> UInt64 {
    buffer.bytes.withUnsafeBytes { raw -> UInt64 in
        var s0: UInt64 = 0, s1: UInt64 = 0, s2: UInt64 = 0, s3: UInt64 = 0
        let n = raw.count
        var i = 0
        while i + 32 <= n {
            s0 &+= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            s1 &+= raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
            s2 &+= raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)
            s3 &+= raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)
            i += 32
        }
        while i + 8 <= n { s0 &+= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self); i += 8 }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < n { tail |= UInt64(raw[i]) << shift; shift += 8; i += 1 }
        return s0 &+ s1 &+ s2 &+ s3 &+ tail
    }
}

var loops = 1, threads: Int?, path: String?
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "-k": loops = Int(args.popFirst() ?? "") ?? 1
    case "-t": threads = Int(args.popFirst() ?? "")
    default: path = a
    }
}
guard let path, loops >= 1 else {
    FileHandle.standardError.write(Data("usage: zoetrope-avif-bench [-k LOOPS] [-t THREADS] FILE\n".utf8))
    exit(2)
}
let coder = AVIFCoder()
let options = DecodingOptions(threadCount: threads)
var buffer = PixelBuffer()
var checksum: UInt64 = 0, framesPerLoop = -1, framesTotal = 0, firstMs = -1.0
var width = 0, height = 0
let t0 = now()
do {
    for k in 0..<loops {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let source = try coder.makeFrameSource(data: data, options: options)
        width = source.info.canvasSize.width
        height = source.info.canvasSize.height
        var c: UInt64 = 0
        for i in 0..<source.info.frameCount {
            try source.decodeFrame(at: i, into: &buffer)
            if k == 0 && i == 0 { firstMs = (now() - t0) * 1e3 }
            c = c &* 1_000_003 &+ frameSum(buffer)
        }
        if framesPerLoop < 0 { framesPerLoop = source.info.frameCount; checksum = c }
        else if c != checksum { FileHandle.standardError.write(Data("loop \(k) differs\n".utf8)); exit(1) }
        framesTotal += source.info.frameCount
    }
} catch {
    FileHandle.standardError.write(Data("zoetrope-avif-bench: \(path): \(error)\n".utf8))
    exit(1)
}
let dt = now() - t0
var ru = rusage()
getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &ru)
let cpu = Double(ru.ru_utime.tv_sec) + Double(ru.ru_utime.tv_usec) * 1e-6 + Double(ru.ru_stime.tv_sec) + Double(ru.ru_stime.tv_usec) * 1e-6
let mp = Double(width * height) / 1e6
let fields: [String] = [
    "\"decoder\":\"zoetrope\"", "\"file\":\"\(path)\"", "\"w\":\(width)", "\"h\":\(height)",
    "\"frames\":\(framesPerLoop)", "\"loops\":\(loops)", "\"threads\":\(threads ?? AVIFCoder.defaultThreadCount)",
    String(format: "\"first_frame_ms\":%.3f", firstMs), String(format: "\"decode_s\":%.6f", dt),
    String(format: "\"fps\":%.2f", Double(framesTotal) / dt), String(format: "\"mpps\":%.2f", Double(framesTotal) * mp / dt),
    String(format: "\"cpu_s\":%.3f", cpu), "\"maxrss_kb\":\(ru.ru_maxrss)", String(format: "\"checksum\":\"%016llx\"", checksum),
]
print("{" + fields.joined(separator: ",") + "}")

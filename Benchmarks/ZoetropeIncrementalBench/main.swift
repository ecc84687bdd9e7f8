// zoetrope-incremental-bench FILE...: what decoding while the file arrives costs, against
// decoding the whole file. For each GIF, PNG/APNG, WebP or AVIF file (CPU time of this process):
//
// - whole file: open (index every frame), the first frame, every frame in order;
// - 4 KiB appends: every frame decoded as soon as the append that completes it returns,
//   then `finish()`; and the appends alone (indexing only, the bytes copied in once);
// - first frame: CPU from the session's start until frame 0 is decoded.
//
//   swift build -c release --product zoetrope-incremental-bench
//   .build/release/zoetrope-incremental-bench /tmp/animbench/big.gif /tmp/animbench/big.png /tmp/animbench/big.webp /tmp/animbench/big.avif
import Foundation
import Glibc
import Zoetrope
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeGIF
import ZoetropeWebP

func cpuSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Appends `data` to `source` in pieces of `step` bytes, calling `body` after each.
func feed(_ data: Data, to source: any IncrementalFrameSource, step: Int,
          _ body: (IncrementalSnapshot) throws -> Void) throws {
    try data.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let end = min(raw.count, offset + step)
            try body(try source.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[offset..<end])))
            offset = end
        }
    }
}

let arguments = CommandLine.arguments.dropFirst()
if arguments.isEmpty {
    print("usage: zoetrope-incremental-bench FILE.gif|FILE.png|FILE.webp|FILE.avif ...")
    exit(2)
}
for path in arguments {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let coders: [any IncrementalDecoding] = [GIFCoder(), WebPCoder(), AVIFCoder(), APNGCoder()]
    let coder = coders.first { $0.sniff(data.prefix($0.minimumSniffLength)) != .noMatch } ?? APNGCoder()
    var buffer = PixelBuffer()

    var start = cpuSeconds()
    let whole = try coder.makeFrameSource(data: data, options: .default)
    let open = cpuSeconds() - start
    try whole.decodeFrame(at: 0, into: &buffer)
    let wholeFirst = cpuSeconds() - start
    for i in 1..<max(1, whole.info.frameCount) { try whole.decodeFrame(at: i, into: &buffer) }
    let wholeAll = cpuSeconds() - start

    start = cpuSeconds()
    let source = coder.makeIncrementalSource(options: .default)
    var shown = 0, first = 0.0
    try feed(data, to: source, step: 4096) { snapshot in
        while shown < snapshot.frameCount {
            try source.decodeFrame(at: shown, into: &buffer)
            if shown == 0 { first = cpuSeconds() - start }
            shown += 1
        }
    }
    let info = try source.finish()
    while shown < info.frameCount { try source.decodeFrame(at: shown, into: &buffer); shown += 1 }
    let incremental = cpuSeconds() - start

    start = cpuSeconds()
    let indexOnly = coder.makeIncrementalSource(options: .default)
    try feed(data, to: indexOnly, step: 4096) { _ in }
    _ = try indexOnly.finish()
    let indexing = cpuSeconds() - start

    let name = (path as NSString).lastPathComponent
    print(String(format: "%@ (%d frames, %.1f MB): whole file: open %.1f ms, first frame %.1f ms, all %.0f ms | 4 KiB appends: appends alone %.1f ms, first frame %.1f ms, all %.0f ms = %.2f× the whole file",
                 name, info.frameCount, Double(data.count) / 1e6, open * 1e3, wholeFirst * 1e3, wholeAll * 1e3,
                 indexing * 1e3, first * 1e3, incremental * 1e3, incremental / wholeAll))
}

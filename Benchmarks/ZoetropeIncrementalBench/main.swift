// zoetrope-incremental-bench FILE...: what decoding while the file arrives costs, against
// decoding the whole file. For each GIF, PNG/APNG, WebP or AVIF file (CPU time of this process):
//
// - whole file: open (index every frame), the first frame, every frame in order;
// - 4 KiB appends: every frame decoded as soon as the append that completes it returns,
//   then `finish()`; and the appends alone (indexing only, the bytes copied in once);
// - first frame: CPU from the session's start until frame 0 is decoded;
// - length known: the same two with `reserveCapacity(_:)` given the file's size first.
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

    let start = cpuSeconds()
    let whole = try coder.makeFrameSource(data: data, options: .default)
    let open = cpuSeconds() - start
    try whole.decodeFrame(at: 0, into: &buffer)
    let wholeFirst = cpuSeconds() - start
    for i in 1..<max(1, whole.info.frameCount) { try whole.decodeFrame(at: i, into: &buffer) }
    let wholeAll = cpuSeconds() - start

    /// Every frame as soon as it is complete: (CPU for all, CPU to frame 0, frame count).
    func appendAndDecode(lengthKnown: Bool) throws -> (all: Double, first: Double, frames: Int) {
        let start = cpuSeconds()
        let source = coder.makeIncrementalSource(options: .default)
        if lengthKnown { source.reserveCapacity(data.count) }
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
        return (cpuSeconds() - start, first, info.frameCount)
    }

    /// The appends alone (indexing, the bytes copied in).
    func appendOnly(lengthKnown: Bool) throws -> Double {
        let start = cpuSeconds()
        let source = coder.makeIncrementalSource(options: .default)
        if lengthKnown { source.reserveCapacity(data.count) }
        try feed(data, to: source, step: 4096) { _ in }
        _ = try source.finish()
        return cpuSeconds() - start
    }

    let (incremental, first, frames) = try appendAndDecode(lengthKnown: false)
    let indexing = try appendOnly(lengthKnown: false)
    // The application knows the length (a Content-Length): one allocation, no copies.
    let (hinted, _, _) = try appendAndDecode(lengthKnown: true)
    let hintedIndexing = try appendOnly(lengthKnown: true)

    let name = (path as NSString).lastPathComponent
    print(String(format: "%@ (%d frames, %.1f MB): whole file: open %.1f ms, first frame %.1f ms, all %.0f ms | 4 KiB appends: appends alone %.1f ms, first frame %.1f ms, all %.0f ms = %.2f× the whole file | length known: appends alone %.1f ms, all %.0f ms = %.2f×",
                 name, frames, Double(data.count) / 1e6, open * 1e3, wholeFirst * 1e3, wholeAll * 1e3,
                 indexing * 1e3, first * 1e3, incremental * 1e3, incremental / wholeAll,
                 hintedIndexing * 1e3, hinted * 1e3, hinted / wholeAll))
}

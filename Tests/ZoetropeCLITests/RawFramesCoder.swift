import Foundation
import Zoetrope

/// An application's own format, to show that the core needs no change for a new one:
///
///     ZRAW1\n
///     <width> <height> <plays, 0 = forever>\n
///     <duration in ms of each frame, space separated>\n
///     <frames × width × height × 4 bytes of straight RGBA, full canvases>
///
/// The CLI tests register it at run time; `Docs/WritingACoder.md` walks through a richer
/// sample coder (`RectFramesCoder`).
struct RawFramesCoder: AnimatedImageCoder {
    static let format = ImageFormat(identifier: "zraw", mediaType: "application/x-zoetrope-raw", fileExtensions: ["zraw"])
    static let magic = Array("ZRAW1\n".utf8)

    var formats: [ImageFormat] { [Self.format] }
    var minimumSniffLength: Int { Self.magic.count }

    func sniff(_ prefix: Data) -> SniffResult {
        ByteSignature.sniff(prefix, magic: Self.magic, format: Self.format)
    }

    func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource {
        try RawFrameSource(data: data, options: options)
    }

    /// Writes frames in this format (the test fixtures' encoder).
    static func encode(width: Int, height: Int, plays: Int, frames: [(rgba: [UInt8], ms: Int)]) -> Data {
        var d = Data(magic)
        d.append(contentsOf: Array("\(width) \(height) \(plays)\n".utf8))
        d.append(contentsOf: Array((frames.map { String($0.ms) }.joined(separator: " ") + "\n").utf8))
        for f in frames { d.append(contentsOf: f.rgba) }
        return d
    }
}

/// Decodes `ZRAW1`. Frames are independent full canvases, so random access is free.
final class RawFrameSource: FrameSource {
    let info: AnimationInfo
    let options: DecodingOptions
    private let data: Data
    private let pixelStart: Int
    // A scratch canvas reused across frames; the lock makes the source Sendable.
    private let scratch = Locked(PixelBuffer())

    init(data: Data, options: DecodingOptions) throws {
        let fmt = RawFramesCoder.format
        // Header: three lines of ASCII after the magic.
        var lines: [String] = []
        var start = data.startIndex + RawFramesCoder.magic.count
        while lines.count < 2 {
            guard let nl = data[start...].firstIndex(of: 0x0A) else {
                throw AnimatedImageError.invalidData(format: fmt, reason: "header line \(lines.count + 2) is not terminated")
            }
            lines.append(String(decoding: data[start..<nl], as: UTF8.self))
            start = nl + 1
        }
        let dims = lines[0].split(separator: " ").compactMap { Int($0) }
        guard dims.count == 3, dims[0] > 0, dims[1] > 0, dims[2] >= 0 else {
            throw AnimatedImageError.invalidData(format: fmt, reason: "expected 'width height plays', got '\(lines[0])'")
        }
        let durations = lines[1].split(separator: " ").compactMap { Int64($0) }
        let size = PixelSize(width: dims[0], height: dims[1])
        // Limits first: nothing is allocated for a header that asks too much.
        try options.limits.checkSize(width: size.width, height: size.height, format: fmt)
        try options.limits.checkFrameCount(durations.count, format: fmt)
        try options.limits.checkCanvases(size, count: 1, format: fmt)
        let frameBytes = size.width * size.height * 4
        let complete = min(durations.count, (data.endIndex - start) / frameBytes)
        let truncation: AnimatedImageError? =
            complete < durations.count
            ? .truncated(format: fmt, completeFrames: complete, reason: "pixel data ends inside frame \(complete)") : nil
        info = AnimationInfo(
            format: fmt, canvasSize: size, frameDurations: durations.prefix(complete).map { .milliseconds($0) },
            loopCount: dims[2] == 0 ? .infinite : .plays(dims[2]), storedLoopValue: dims[2],
            hasAlpha: true, truncation: truncation)
        self.data = data
        self.options = options
        pixelStart = start - data.startIndex
    }

    var retainedByteCount: Int { scratch.withLock { $0.byteCount } }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        try checkFrameIndex(index)
        let size = info.canvasSize, out = outputSize, format = options.pixelFormat
        let offset = data.startIndex + pixelStart + index * size.width * size.height * 4
        scratch.withLock { canvas in
            canvas.reshape(width: size.width, height: size.height)
            canvas.bytes.withUnsafeMutableBytes { dst in
                data.copyBytes(to: dst.bindMemory(to: UInt8.self), from: offset..<offset + dst.count)
            }
            canvas.copy(into: &buffer, size: out, format: format)
        }
    }
}

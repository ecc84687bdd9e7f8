import Foundation
import Zoetrope

/// A decoding session over one PNG or APNG.
///
/// Sequential decoding draws each frame once onto a kept canvas. Random access restarts
/// from the nearest earlier frame that needs no predecessor: frame 0, a frame that
/// replaces the whole canvas (SOURCE over the full canvas, not disposed to PREVIOUS), or a
/// frame after one that clears the whole canvas; so a seek costs at most the frames since.
final class APNGFrameSource: FrameSource {
    let info: AnimationInfo
    let options: DecodingOptions
    let index: APNGIndex
    private let data: Data
    /// For each frame, the frame decoding restarts from when it is reached by a seek.
    private let restartFrame: [Int]
    private let state: Locked<APNGDecodeState>

    init(data: Data, options: DecodingOptions) throws {
        let index = try data.withUnsafeBytes { raw throws(AnimatedImageError) in
            try APNGChunkWalker.index(raw, limits: options.limits)
        }
        let canvas = index.header.size
        let format = index.format
        // Everything this session may hold: canvas, saved PREVIOUS region, OVER scratch,
        // the largest frame stream and libpng's row buffers.
        try options.limits.checkCanvases(canvas, count: 1, format: format)
        guard canvas.rgbaByteCount != nil else { // only reachable with Limits.none
            throw AnimatedImageError.limitExceeded(format: format, limit: .allocationBytes, requested: .max, allowed: .max)
        }
        var saved = 0, scratch = 0, stream = 0, rows = 0
        for (i, f) in index.frames.enumerated() {
            // Frames lie inside the canvas, whose RGBA size was just found to fit an Int.
            let area = f.rect.width * f.rect.height * 4
            if f.dispose == .previous { saved = max(saved, area) }
            if f.blend == .over, i > 0 { scratch = max(scratch, area) }
            stream = max(stream, PNGFrameStream.byteCount(for: f, index: index))
            rows = max(rows, 2 * index.header.rowBytes(width: f.rect.width) + f.rect.width * 8)
        }
        let total = [saved, scratch, stream, rows, 65_536].reduce(canvas.rgbaByteCount ?? .max) { sum, part in
            let (t, overflow) = sum.addingReportingOverflow(part)
            return overflow ? .max : t
        }
        try options.limits.checkAllocation(total, format: format)
        let output = options.outputSize(forCanvas: canvas)
        try options.limits.checkAllocation(output.rgbaByteCount ?? .max, format: format)

        self.info = AnimationInfo(
            format: format, canvasSize: canvas, frameDurations: index.frames.map(\.duration),
            loopCount: index.numPlays.map { $0 == 0 ? .infinite : .plays(Int($0)) } ?? .once,
            storedLoopValue: index.numPlays.map(Int.init),
            hasAlpha: APNGFrameSource.hasAlpha(index),
            truncation: index.truncation)
        self.options = options
        self.index = index
        self.data = data
        self.restartFrame = APNGFrameSource.restartFrames(index.frames, canvas: canvas)
        self.state = Locked(APNGDecodeState(compositor: Compositor(size: canvas)))
    }

    var retainedByteCount: Int { state.withLock { $0.byteCount } }

    /// Why the file's animation chunks were ignored, if they were.
    var fallbackReason: String? { index.fallbackReason }

    func decodeFrame(at frameIndex: Int, into buffer: inout PixelBuffer) throws {
        try checkFrameIndex(frameIndex)
        let size = outputSize, format = options.pixelFormat
        try state.withLock { s in
            let start = restartFrame[frameIndex]
            if frameIndex < s.drawn - 1 || start > s.drawn {
                // Backwards (or far ahead): start again from the nearest independent frame.
                s.compositor.reset()
                s.drawn = start
            }
            while s.drawn <= frameIndex {
                do {
                    try draw(s.drawn, state: &s)
                } catch {
                    let failed = s.drawn
                    s.compositor.reset()
                    s.drawn = 0
                    if failed == 0 { throw error }
                    throw AnimatedImageError.truncated(format: info.format, completeFrames: failed,
                                                       reason: "frame \(failed) does not decode: \(error)")
                }
                s.drawn += 1
            }
            s.compositor.copyCanvas(into: &buffer, size: size, format: format)
        }
    }

    /// Decodes frame `i` and composites it onto the canvas.
    private func draw(_ i: Int, state s: inout APNGDecodeState) throws {
        let frame = index.frames[i]
        let fmt = info.format
        let limits = options.limits
        try data.withUnsafeBytes { file in
            try s.stream.prepare(frame, index: index, file: file, format: fmt)
            let r = s.compositor.beginFrame(rect: frame.rect, dispose: frame.dispose)
            precondition(r == frame.rect, "the walker keeps frames inside the canvas")
            let stream = s.stream
            if frame.blend == .source || i == 0 {
                // Replacing pixels (or drawing onto the clear canvas of a play's first frame):
                // libpng writes straight into the canvas.
                try s.compositor.withCanvas { canvas in
                    let stride = canvas.bytesPerRow
                    try canvas.bytes.withUnsafeMutableBytes { dst in
                        try stream.decode(frame, file: file, into: dst.baseAddress! + r.y * stride + r.x * 4,
                                          bytesPerRow: stride, limits: limits, format: fmt)
                    }
                }
                return
            }
            let rowBytes = r.width * 4
            if s.scratch.count < rowBytes * r.height { s.scratch = [UInt8](repeating: 0, count: rowBytes * r.height) }
            try s.scratch.withUnsafeMutableBytes { dst in
                try stream.decode(frame, file: file, into: dst.baseAddress!, bytesPerRow: rowBytes, limits: limits, format: fmt)
            }
            let scratch = s.scratch
            scratch.withUnsafeBytes { s.compositor.draw($0, bytesPerRow: rowBytes, rect: r, blend: .over) }
        }
    }

    /// For each frame, the latest frame at or before it that decoding can start from on a
    /// transparent canvas with the same result.
    static func restartFrames(_ frames: [APNGFrame], canvas: PixelSize) -> [Int] {
        let full = PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
        var result = [Int](repeating: 0, count: frames.count)
        var last = 0
        for j in frames.indices where j > 0 {
            let f = frames[j], p = frames[j - 1]
            let replacesAll = f.rect == full && f.blend == .source && f.dispose != .previous
            let afterClear = p.rect == full && p.dispose == .background
            if replacesAll || afterClear { last = j }
            result[j] = last
        }
        return result
    }

    static func hasAlpha(_ index: APNGIndex) -> Bool {
        if index.header.hasAlphaChannel || index.transparency != nil { return true }
        let full = PixelRect(x: 0, y: 0, width: index.header.width, height: index.header.height)
        // Opaque only when frame 0 fills the canvas and nothing clears part of it later.
        guard index.frames.first?.rect == full else { return true }
        return index.frames.contains { $0.dispose == .background }
    }
}

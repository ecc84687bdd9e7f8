import Foundation
import Synchronization
import Zoetrope

/// One frame as the index records it: its placement, its duration, where its pixels are.
struct RectFrame: Sendable {
    var placement: FramePlacement
    var duration: FrameDuration
    /// Offset of the frame's RGBA bytes from the start of the file.
    var pixelOffset: Int
}

/// The canvas and which frame it shows; `CanvasRendering` brings it to any frame.
struct RectCanvas: CanvasRendering {
    var compositor: Compositor
    var shownFrame: Int?
    var keyFrames: KeyFrameTable
    var decodedFrameCount = 0

    init(size: PixelSize, keyFrames: KeyFrameTable) {
        // Pixels only where the frames draw: a small frame on a huge canvas costs its rectangle.
        compositor = Compositor(size: size, holdsDrawnAreaOnly: true)
        compositor.reserve(keyFrames.drawnArea)
        self.keyFrames = keyFrames
    }

    mutating func drawFrame(_ index: Int, input: (file: Data, frames: [RectFrame])) throws -> FrameDrawResult {
        let frame = input.frames[index], rect = frame.placement.rect
        compositor.beginFrame(rect: rect, dispose: frame.placement.dispose)
        input.file.withUnsafeBytes { file in
            let pixels = UnsafeRawBufferPointer(rebasing: file[frame.pixelOffset..<frame.pixelOffset + rect.width * rect.height * 4])
            compositor.draw(pixels, bytesPerRow: rect.width * 4, rect: rect, blend: frame.placement.blend)
        }
        return .complete
    }
}

/// Decodes `ZRECT1`.
final class RectFrameSource: FrameSource {
    let info: AnimationInfo
    let options: DecodingOptions
    private let file: Data
    private let frames: [RectFrame]
    private let canvas: Mutex<RectCanvas>

    init(data: Data, options: DecodingOptions) throws {
        let format = RectFramesCoder.format
        let file = Data(data)  // indices from 0, whatever slice the caller passed
        var offset = RectFramesCoder.magic.count
        func u16() -> Int? {
            guard offset + 2 <= file.count else { return nil }
            defer { offset += 2 }
            return Int(file[offset]) | Int(file[offset + 1]) << 8
        }
        guard let width = u16(), let height = u16(), let plays = u16(), let count = u16() else {
            throw AnimatedImageError.truncated(format: format, completeFrames: 0, reason: "the header is cut short")
        }
        // Limits before anything sized by the file is allocated.
        try options.limits.checkSize(width: width, height: height, format: format)
        try options.limits.checkFrameCount(count, format: format)
        let size = PixelSize(width: width, height: height)
        let canvasRect = PixelRect(x: 0, y: 0, width: width, height: height)

        var frames: [RectFrame] = []
        var truncation: AnimatedImageError?
        while frames.count < count {
            guard let x = u16(), let y = u16(), let w = u16(), let h = u16(), offset + 4 <= file.count else {
                truncation = .truncated(format: format, completeFrames: frames.count, reason: "frame \(frames.count)'s header is cut short")
                break
            }
            let dispose: DisposeMode = [.none, .background, .previous][min(2, Int(file[offset]))]
            let blend: BlendMode = file[offset + 1] == 0 ? .source : .over
            offset += 2
            let duration = FrameDuration.milliseconds(Int64(u16()!))
            let rect = PixelRect(x: x, y: y, width: w, height: h)
            guard rect.intersection(canvasRect) == rect, !rect.isEmpty else {
                throw AnimatedImageError.invalidData(format: format, reason: "frame \(frames.count): \(rect) is not inside the \(size) canvas")
            }
            guard file.count - offset >= w * h * 4 else {
                truncation = .truncated(format: format, completeFrames: frames.count, reason: "frame \(frames.count)'s pixels are cut short")
                break
            }
            frames.append(
                RectFrame(
                    placement: FramePlacement(rect: rect, dispose: dispose, blend: blend),
                    duration: duration, pixelOffset: offset))
            offset += w * h * 4
        }
        if frames.isEmpty, let truncation { throw truncation }

        // Everything the session holds: the canvas, the region "dispose to previous" saves,
        // and the key-frame table.
        var budget = AllocationBudget(limits: options.limits, format: format)
        budget.reserve(2, bytesEach: size.rgbaByteCount)
        budget.reserve(KeyFrameTable.byteCount(frames: frames.count))
        try budget.check()

        info = AnimationInfo(
            format: format, canvasSize: size, frameDurations: frames.map(\.duration),
            loopCount: plays == 0 ? .infinite : .plays(plays), storedLoopValue: plays,
            hasAlpha: true, truncation: truncation)
        self.options = options
        self.file = file
        self.frames = frames
        canvas = Mutex(RectCanvas(size: size, keyFrames: KeyFrameTable(frames.map(\.placement), canvasSize: size)))
    }

    var retainedByteCount: Int { canvas.withLock { $0.compositor.byteCount } }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        try checkFrameIndex(index)
        let size = outputSize, format = options.pixelFormat, input = (file: file, frames: frames)
        try canvas.withLock { canvas in
            try canvas.renderFrame(index, input: input, into: &buffer, size: size, format: format)
        }
    }
}

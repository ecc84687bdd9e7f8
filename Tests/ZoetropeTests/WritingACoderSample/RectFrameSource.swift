import Foundation
import Synchronization
import Zoetrope

/// Where a frame draws on the canvas, in pixels from the top-left corner.
struct FrameRect: Sendable, CustomStringConvertible {
    var x: Int, y: Int, width: Int, height: Int
    /// "W×H+X+Y", as X11 geometry writes it.
    var description: String { "\(width)×\(height)+\(x)+\(y)" }
}

/// One frame as the index records it: where it draws, how, for how long, where its pixels are.
struct RectFrame: Sendable {
    var rect: FrameRect
    /// After the frame: 0 leaves it, 1 clears its rectangle, 2 restores what was under it.
    var dispose: UInt8
    /// Whether the frame is drawn over the canvas (alpha blending) or replaces its rectangle.
    var blendsOver: Bool
    var duration: FrameDuration
    /// Offset of the frame's RGBA bytes from the start of the file.
    var pixelOffset: Int
}

/// The canvas (straight RGBA) and the frame it shows.
struct RectCanvas {
    var picture: PixelBuffer
    var shownFrame: Int?
    /// What the frame shown covered, when its disposal restores it.
    var saved: [UInt8] = []

    init(size: PixelSize) {
        picture = PixelBuffer(width: size.width, height: size.height, format: .rgba8)
    }

    /// Brings the canvas to frame `target`: on from the frame shown, or again from frame 0.
    mutating func render(_ target: Int, file: Data, frames: [RectFrame]) {
        if let shown = shownFrame, shown == target { return }
        if let shown = shownFrame, shown > target { shownFrame = nil }
        if shownFrame == nil { picture = PixelBuffer(width: picture.width, height: picture.height, format: .rgba8) }
        for index in (shownFrame.map { $0 + 1 } ?? 0)...target {
            if let previous = shownFrame { dispose(frames[previous]) }
            draw(frames[index], file: file)
            shownFrame = index
        }
    }

    /// The bytes of row `row` of `rect` in the canvas.
    private func canvasRow(_ row: Int, of rect: FrameRect) -> Range<Int> {
        let start = ((rect.y + row) * picture.width + rect.x) * 4
        return start..<start + rect.width * 4
    }

    private mutating func dispose(_ frame: RectFrame) {
        let rect = frame.rect, rowBytes = rect.width * 4
        for row in 0..<rect.height where frame.dispose != 0 {
            let under = frame.dispose == 2 ? Array(saved[row * rowBytes..<(row + 1) * rowBytes]) : [UInt8](repeating: 0, count: rowBytes)
            picture.bytes.replaceSubrange(canvasRow(row, of: rect), with: under)
        }
    }

    private mutating func draw(_ frame: RectFrame, file: Data) {
        let rect = frame.rect, rowBytes = rect.width * 4
        if frame.dispose == 2 { saved = (0..<rect.height).flatMap { picture.bytes[canvasRow($0, of: rect)] } }
        for row in 0..<rect.height {
            let from = file.startIndex + frame.pixelOffset + row * rowBytes
            let source = Array(file[from..<from + rowBytes])
            var pixels = Array(picture.bytes[canvasRow(row, of: rect)])
            for p in stride(from: 0, to: rowBytes, by: 4) {
                let sa = Int(source[p + 3]), da = Int(pixels[p + 3])
                guard frame.blendsOver, sa < 255 else {
                    pixels.replaceSubrange(p..<p + 4, with: source[p..<p + 4])
                    continue
                }
                // Straight-alpha "over": what shows of the canvas is its alpha times 1 − sa.
                let under = da * (255 - sa) / 255, alpha = sa + under
                guard alpha > 0 else { continue }
                for c in p..<p + 3 { pixels[c] = UInt8((Int(source[c]) * sa + Int(pixels[c]) * under) / alpha) }
                pixels[p + 3] = UInt8(alpha)
            }
            picture.bytes.replaceSubrange(canvasRow(row, of: rect), with: pixels)
        }
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
        // The session holds two canvases' worth: the canvas, and what a restoring frame saves.
        let size = PixelSize(width: width, height: height)
        try options.limits.checkCanvases(size, count: 2, format: format)

        var frames: [RectFrame] = []
        var truncation: AnimatedImageError?
        while frames.count < count {
            guard let x = u16(), let y = u16(), let w = u16(), let h = u16(), offset + 4 <= file.count else {
                truncation = .truncated(format: format, completeFrames: frames.count, reason: "frame \(frames.count)'s header is cut short")
                break
            }
            let dispose = min(2, file[offset]), blendsOver = file[offset + 1] != 0
            offset += 2
            let duration = FrameDuration.milliseconds(Int64(u16()!))
            let rect = FrameRect(x: x, y: y, width: w, height: h)
            guard w > 0, h > 0, x + w <= width, y + h <= height else {
                throw AnimatedImageError.invalidData(format: format, reason: "frame \(frames.count): \(rect) is not inside the \(size) canvas")
            }
            guard file.count - offset >= w * h * 4 else {
                truncation = .truncated(format: format, completeFrames: frames.count, reason: "frame \(frames.count)'s pixels are cut short")
                break
            }
            frames.append(RectFrame(rect: rect, dispose: dispose, blendsOver: blendsOver, duration: duration, pixelOffset: offset))
            offset += w * h * 4
        }
        if frames.isEmpty, let truncation { throw truncation }

        info = AnimationInfo(
            format: format, canvasSize: size, frameDurations: frames.map(\.duration),
            loopCount: plays == 0 ? .infinite : .plays(plays), storedLoopValue: plays,
            hasAlpha: true, truncation: truncation)
        self.options = options
        self.file = file
        self.frames = frames
        canvas = Mutex(RectCanvas(size: size))
    }

    var retainedByteCount: Int { canvas.withLock { $0.picture.byteCount + $0.saved.count } }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        try checkFrameIndex(index)
        let (file, frames) = (self.file, self.frames)
        let picture = canvas.withLock { canvas in
            canvas.render(index, file: file, frames: frames)
            return canvas.picture
        }
        // To the output size and pixel format the options ask for.
        picture.copy(into: &buffer, size: outputSize, format: options.pixelFormat)
    }
}

import Foundation
import Zoetrope

/// The mutable part of a `WebPFrameSource`: the composited canvas, which frame it shows,
/// and the scratch raster for frames that blend.
struct WebPDecodingState: Sendable {
    /// The canvas, allocated at the first decode that needs it: opening a file to read its
    /// info allocates no canvas.
    var compositor: Compositor {
        mutating get {
            if let storage { return storage }
            let made = Compositor(size: canvasSize)
            storage = made
            return made
        }
        _modify {
            if storage == nil { storage = Compositor(size: canvasSize) }
            yield &storage!
        }
    }
    private var storage: Compositor?
    private let canvasSize: PixelSize
    /// The frame whose composited canvas `compositor` holds, nil after a failure or before
    /// the first decode.
    var current: Int?
    /// Allocated at the first blending frame, at the size the limits were checked for
    /// (the largest blending frame), so files that never blend never pay for it.
    private var scratch: [UInt8] = []
    private let scratchBytes: Int
    /// libwebp decoder threads (`use_threads`): only when the caller asks for more than one.
    private let useThreads: Bool

    init(canvasSize: PixelSize, scratchPixels: Int, useThreads: Bool) {
        self.canvasSize = canvasSize
        scratchBytes = scratchPixels * 4
        self.useThreads = useThreads
    }

    var byteCount: Int { (storage?.byteCount ?? 0) + scratch.count }

    /// The frames to decode to show `index`: on from the current frame when it is at or
    /// after `index`'s key frame, else from that key frame.
    func plan(for index: Int, frames: [WebPFrameEntry]) -> ClosedRange<Int> {
        let key = frames[index].keyFrameIndex
        if let current, current >= key, current < index { return (current + 1)...index }
        return key...index
    }

    /// Brings the canvas to frame `index`.
    mutating func advance(to index: Int, frames: [WebPFrameEntry], data: Data) throws {
        if current == index { return }
        let range = plan(for: index, frames: frames)
        // Starting afresh from a key frame: clear the canvas, unless that key frame covers
        // all of it (it overwrites every pixel; a stale pending disposal is harmless then).
        // (A canvas not yet allocated is transparent already.)
        if storage != nil, range.lowerBound == frames[index].keyFrameIndex, current.map({ $0 + 1 }) != range.lowerBound,
           frames[range.lowerBound].rect != compositor.bounds {
            compositor.reset()
        }
        current = nil
        try data.withUnsafeBytes { (file: UnsafeRawBufferPointer) in
            for i in range {
                try render(frames[i], previous: i > 0 ? frames[i - 1] : nil, index: i, file: file)
            }
        }
        current = index
    }

    /// Whether frame `index` can be decoded straight into the caller's buffer, skipping
    /// the canvas and the copy out of it: a key frame covering the whole canvas, followed
    /// by another (or by the end, after which a new play starts from a cleared canvas), so
    /// no later frame in sequence needs this one on the canvas.
    func canDecodeDirectly(_ index: Int, frames: [WebPFrameEntry]) -> Bool {
        let full = PixelRect(x: 0, y: 0, width: canvasSize.width, height: canvasSize.height)
        guard frames[index].isKeyFrame, frames[index].rect == full else { return false }
        return index + 1 == frames.count || (frames[index + 1].isKeyFrame && frames[index + 1].rect == full)
    }

    /// Decodes a frame for which `canDecodeDirectly` holds into `output` (full canvas size,
    /// straight alpha). The canvas no longer shows a known frame afterwards.
    mutating func decodeDirectly(_ index: Int, frames: [WebPFrameEntry], data: Data, into output: inout PixelBuffer) throws {
        current = nil
        let frame = frames[index]
        output.format = .rgba8
        output.reshape(width: frame.rect.width, height: frame.rect.height)
        let stride = output.bytesPerRow, threads = useThreads
        try data.withUnsafeBytes { (file: UnsafeRawBufferPointer) in
            let payload = try WebPDecodingState.payload(of: frame, index: index, in: file)
            try output.bytes.withUnsafeMutableBytes { raw in
                try WebPBitstreamDecoder.decode(payload, width: frame.rect.width, height: frame.rect.height,
                                                into: raw.baseAddress!, bytesPerRow: stride, frame: index, threads: threads)
            }
        }
    }

    private static func payload(of frame: WebPFrameEntry, index: Int, in file: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer {
        guard frame.payloadOffset >= 0, frame.payloadCount >= 0,
              frame.payloadOffset + frame.payloadCount <= file.count else {
            throw AnimatedImageError.invalidData(format: .webp, reason: "frame \(index): image data outside the file")
        }
        return UnsafeRawBufferPointer(rebasing: file[frame.payloadOffset..<frame.payloadOffset + frame.payloadCount])
    }

    private mutating func render(_ frame: WebPFrameEntry, previous: WebPFrameEntry?, index: Int,
                                 file: UnsafeRawBufferPointer) throws {
        let payload = try WebPDecodingState.payload(of: frame, index: index, in: file)
        let rect = compositor.beginFrame(rect: frame.rect, dispose: frame.dispose)
        guard rect == frame.rect else {
            throw AnimatedImageError.invalidData(format: .webp, reason: "frame \(index): \(frame.rect) reaches outside the canvas")
        }
        // Locals, not properties, inside the canvas closures: `compositor` is a computed
        // property of `self`, so it may not overlap other accesses to `self`.
        let threads = useThreads
        if frame.drawsBySource {
            try compositor.withCanvas { canvas in
                let stride = canvas.bytesPerRow
                try canvas.bytes.withUnsafeMutableBytes { raw in
                    try WebPBitstreamDecoder.decode(payload, width: rect.width, height: rect.height,
                                                    into: raw.baseAddress! + rect.y * stride + rect.x * 4,
                                                    bytesPerRow: stride, frame: index, threads: threads)
                }
            }
        } else {
            let rowBytes = rect.width * 4
            if scratch.isEmpty {
                scratch = [UInt8](repeating: 0, count: scratchBytes)
            }
            precondition(scratch.count >= rowBytes * rect.height, "scratch sized from the index")
            try scratch.withUnsafeMutableBytes { raw in
                try WebPBitstreamDecoder.decode(payload, width: rect.width, height: rect.height,
                                                into: raw.baseAddress!, bytesPerRow: rowBytes, frame: index, threads: threads)
            }
            // libwebp's blend, not the compositor's exact one (see WebPBlend). A blending
            // frame is never a key frame, so `previous` is the frame just drawn.
            let unblended = previous?.dispose == .background ? previous?.rect : nil
            let pixels = scratch
            pixels.withUnsafeBytes { raw in
                compositor.withCanvas { canvas in
                    WebPBlend.draw(raw, bytesPerRow: rowBytes, rect: rect, unblended: unblended, onto: &canvas)
                }
            }
        }
    }
}

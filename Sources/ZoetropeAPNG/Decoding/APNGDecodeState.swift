import Zoetrope

/// The mutable part of an `APNGFrameSource`, kept behind its lock.
struct APNGDecodeState: Sendable, CanvasRendering {
    /// The canvas and what disposal still has to undo.
    var compositor: Compositor
    /// The frame the canvas shows, its disposal pending; nil when it must be rebuilt.
    var shownFrame: Int?
    /// Where decoding restarts (the shared rule).
    var keyFrames: KeyFrameTable
    var decodedFrameCount = 0
    /// The frame's PNG stream as libpng reads it, reused across frames.
    var stream = PNGFrameStream()
    /// Decoded pixels of an OVER frame before they are blended.
    var scratch: [UInt8] = []

    init(compositor: Compositor, keyFrames: KeyFrameTable) {
        self.compositor = compositor
        self.keyFrames = keyFrames
    }

    var byteCount: Int { compositor.byteCount + stream.byteCount + scratch.capacity }

    var decodesFullFrames: Bool { true }

    mutating func drawFrame(_ index: Int, input source: any APNGFrameDrawing) throws -> FrameDrawResult {
        do {
            try source.draw(index, state: &self)
        } catch {
            throw source.frameError(error, frame: index)
        }
        return .complete
    }

    mutating func decodeFullFrame(
        _ index: Int, input source: any APNGFrameDrawing, into pixels: UnsafeMutableRawPointer,
        bytesPerRow: Int
    ) throws {
        do {
            try source.decodeFull(index, into: pixels, bytesPerRow: bytesPerRow, stream: &stream)
        } catch {
            throw source.frameError(error, frame: index)
        }
    }
}

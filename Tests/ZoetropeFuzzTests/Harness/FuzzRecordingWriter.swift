import Foundation
import ZoetropeEncoding

@testable import Zoetrope

/// A writer that keeps, in straight alpha, every frame it passes on to another writer:
/// what the conversion target compares the output with.
final class FuzzRecordingWriter: AnimatedImageWriter {
    private let inner: any AnimatedImageWriter
    private let canvasSize: PixelSize
    private(set) var frames: [EncodingFrame] = []

    init(_ inner: any AnimatedImageWriter, canvasSize: PixelSize) {
        self.inner = inner
        self.canvasSize = canvasSize
    }

    var frameCount: Int { inner.frameCount }

    func add(_ frame: EncodingFrame) throws {
        try inner.add(frame)
        let straight = try frame.straightPixels(canvasSize: canvasSize, index: frames.count)
        frames.append(EncodingFrame(pixels: straight, duration: frame.duration))
    }

    func finish() throws -> Data { try inner.finish() }
}

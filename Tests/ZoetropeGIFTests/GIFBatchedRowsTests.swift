import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeGIF

/// Non-interlaced images decode many rows per giflib call (`GIFDecodeState.batchIndexBytes`
/// of indices at a time). Across batch boundaries, with a transparent index and an image
/// clipped by the canvas, every pixel is the one the rules give.
@Suite struct GIFBatchedRowsTests {
    /// A grey ramp: index i is (i, 255 − i, i / 2).
    static let colors: [GIFWriter.Color] = (0..<256).map { (i: Int) -> GIFWriter.Color in
        (UInt8(i), UInt8(255 - i), UInt8(i / 2))
    }

    static func rgba(_ index: UInt8) -> [UInt8] {
        let c = colors[Int(index)]
        return [c.r, c.g, c.b, 255]
    }

    @Test func rowsAcrossBatchesAClippedImageAndTransparencyDrawAsTheRulesSay() throws {
        // Frame 1 is 1000 wide: 65 rows a batch, so its 140 rows on the canvas take three.
        let canvas = PixelSize(width: 900, height: 150)
        let rect = PixelRect(x: 100, y: 10, width: 1000, height: 200)
        #expect(GIFDecodeState.batchRows(width: rect.width, rows: 140, interlaced: false) == 65)
        var rng = SplitMix64(seed: 11)
        let background: [UInt8] = (0..<(canvas.width * canvas.height)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let top: [UInt8] = (0..<(rect.width * rect.height)).map { _ in UInt8(truncatingIfNeeded: rng.next() % 8) }
        var w = GIFWriter(width: canvas.width, height: canvas.height, globalColors: Self.colors)
        w.image(width: canvas.width, height: canvas.height, indices: background)
        w.graphicControl(transparentIndex: 0)
        w.image(x: rect.x, y: rect.y, width: rect.width, height: rect.height, indices: top)
        let source = try GIFCoder().makeFrameSource(data: Data(w.file), options: .default)
        #expect(source.info.canvasSize == canvas)
        _ = try source.decodeFrame(at: 0)
        let frame = try source.decodeFrame(at: 1)
        var mismatches = 0
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                var index = background[y * canvas.width + x]
                if x >= rect.x, y >= rect.y {
                    let t = top[(y - rect.y) * rect.width + (x - rect.x)]
                    if t != 0 { index = t }
                }
                if frame.pixel(x: x, y: y) != Self.rgba(index) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
        // The bulk path's payloads (one giflib call per image) give the same frames.
        let check = BulkDecodingCheck { try GIFCoder().makeFrameSource(data: Data(w.file), options: .default) }
        #expect(try check.violations(threads: [1, 2]).isEmpty)
    }
}

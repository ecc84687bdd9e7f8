import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeGIF

/// `GIFTableRenumbering`: the global table is reordered once every frame is known, so the
/// frames that draw a few colours code them with few bits; pixels never change.
@Suite struct GIFTableRenumberingTests {
    static let size = PixelSize(width: 40, height: 10)

    /// A first frame of 100 colours, three of them on one pixel each (so the encoder's
    /// first-frame order, most used first, puts them last), then frames where only a 4×4
    /// block changes, cycling through those three.
    static func frames() -> [EncodingFrame] {
        let rare: [[UInt8]] = [[250, 0, 0, 255], [0, 250, 0, 255], [0, 0, 250, 255]]
        return (0..<5).map { k in
            var b = PixelBuffer(width: size.width, height: size.height)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let block = x >= 10 && x < 14 && y >= 3 && y < 7
                    if k > 0 && block {
                        b.setPixel(x: x, y: y, rare[k % 3])
                    } else if y == 0 && x < 3 {
                        b.setPixel(x: x, y: y, rare[x])
                    } else {
                        let c = (x + y * size.width) % 97  // 97 colours, each on about four pixels
                        b.setPixel(x: x, y: y, [UInt8(c * 2), UInt8(100 + c), 60, 255])
                    }
                }
            }
            return EncodingFrame(pixels: b, duration: .milliseconds(100))
        }
    }

    /// The LZW minimum code size byte of every image (each just after its descriptor).
    static func codeSizes(_ data: Data) throws -> [UInt8] {
        let index = try data.withUnsafeBytes { try GIFIndex.parse($0, limits: .default) }
        return index.frames.map { data[$0.descriptorOffset + 9] }
    }

    @Test func framesOfAFewColoursNameThemWithSmallIndices() throws {
        let frames = Self.frames()
        let data = try GIFEncoder().encode(frames, canvasSize: Self.size, options: EncodingOptions(loopCount: .infinite))
        // The first frame needs 7 bits for its 100 colours; each later one draws one of the
        // three rare colours (and the transparent index for nothing else changes), which
        // now come first in the table: 2 bits, the least GIF allows.
        #expect(try Self.codeSizes(data) == [7, 2, 2, 2, 2])
        let source = try GIFCoder().makeFrameSource(data: data, options: .default)
        for (i, f) in frames.enumerated() {
            #expect(PixelComparison.firstMismatch(expected: f.pixels, got: try source.decodeFrame(at: i), tolerance: 0) == nil, "frame \(i)")
        }
        // Already in its best order: a second pass finds nothing to save.
        #expect(GIFTableRenumbering.apply(to: data) == data)
    }

    /// With lossy LZW the transparent index moves with the table too.
    @Test func lossyFramesKeepTheirTransparency() throws {
        let frames = Self.frames()
        let data = try GIFEncoder(lossy: 100).encode(frames, canvasSize: Self.size, options: EncodingOptions(loopCount: .infinite))
        #expect(try Self.codeSizes(data).dropFirst().allSatisfy { $0 == 2 })
        let source = try GIFCoder().makeFrameSource(data: data, options: .default)
        for i in 1..<frames.count {
            // The block is new in every frame, so it is drawn; everything around it is kept.
            let got = try source.decodeFrame(at: i), previous = try source.decodeFrame(at: i - 1)
            for y in 0..<Self.size.height {
                for x in 0..<Self.size.width where !(x >= 10 && x < 14 && y >= 3 && y < 7) {
                    #expect(got.pixel(x: x, y: y) == previous.pixel(x: x, y: y), "frame \(i) (\(x), \(y))")
                }
            }
        }
    }

    @Test func anythingButAWholeGIFIsLeftAsItIs() throws {
        let data = try GIFEncoder().encode(Self.frames(), canvasSize: Self.size, options: EncodingOptions(loopCount: .infinite))
        for cut in [data.prefix(12), data.prefix(13 + 3 * 128), data.dropLast(1), data.dropLast(40)] {
            #expect(GIFTableRenumbering.apply(to: Data(cut)) == Data(cut))
        }
        let noise = Data((0..<600).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
        #expect(GIFTableRenumbering.apply(to: noise) == noise)
    }
}

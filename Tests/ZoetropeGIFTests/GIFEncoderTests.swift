import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeGIF

/// GIFEncoder: exact round trips, frame differencing, disposal, timing and loop rules.
@Suite struct GIFEncoderTests {
    static func canvas(_ w: Int, _ h: Int, _ paint: (Int, Int) -> [UInt8]) -> PixelBuffer {
        var b = PixelBuffer(width: w, height: h)
        for y in 0..<h { for x in 0..<w { b.setPixel(x: x, y: y, paint(x, y)) } }
        return b
    }

    static func encode(
        _ canvases: [PixelBuffer], durations: [FrameDuration]? = nil, loop: LoopCount = .infinite,
        dither: GIFDither = .none
    ) throws -> Data {
        let frames = canvases.enumerated().map { EncodingFrame(pixels: $1, duration: durations?[$0] ?? .centiseconds(5)) }
        return try GIFEncoder(dither: dither).encode(frames, canvasSize: canvases[0].size, options: EncodingOptions(loopCount: loop))
    }

    static func index(_ data: Data) throws -> GIFIndex {
        try data.withUnsafeBytes { try GIFIndex.parse($0, limits: .default) }
    }

    /// Moving shapes, transparency that appears and disappears, 200 colours per frame.
    static func movingFrames() -> [PixelBuffer] {
        (0..<6).map { k in
            canvas(20, 12) { x, y in
                if y < 2 && x >= k * 3 && x < k * 3 + 4 { return [0, 0, 0, 0] }  // a moving hole
                if x >= 2 + k * 2 && x < 8 + k * 2 && y >= 4 && y < 9 { return [250, UInt8(10 * k), 0, 255] }
                return [UInt8((x * 10 + y) % 200), 90, UInt8(y * 20), 255]
            }
        }
    }

    @Test func roundTripIsExactForFewColoursAndBinaryAlpha() throws {
        let canvases = Self.movingFrames()
        let data = try Self.encode(canvases, loop: .plays(3))
        let source = try GIFCoder().makeFrameSource(data: data, options: .default)
        #expect(source.info.frameCount == canvases.count)
        #expect(source.info.loopCount == .plays(3))
        for (i, c) in canvases.enumerated() {
            #expect(PixelComparison.firstMismatch(expected: c, got: try source.decodeFrame(at: i), tolerance: 0) == nil, "frame \(i)")
        }
    }

    @Test func alphaIsThresholdedAtHalf() throws {
        let c = Self.canvas(4, 1) { x, _ in [200, 100, 50, [0, 127, 128, 255][x]] }
        let decoded = try GIFCoder().makeFrameSource(data: try Self.encode([c]), options: .default).decodeFrame(at: 0)
        #expect(decoded.pixel(x: 0, y: 0)[3] == 0)
        #expect(decoded.pixel(x: 1, y: 0)[3] == 0)
        #expect(decoded.pixel(x: 2, y: 0) == [200, 100, 50, 255])
        #expect(decoded.pixel(x: 3, y: 0) == [200, 100, 50, 255])
    }

    @Test func onePixelChangeWritesAOnePixelRectangle() throws {
        let a = Self.canvas(16, 16) { x, y in [UInt8(x * 16), UInt8(y * 16), 0, 255] }
        var b = a
        b.setPixel(x: 9, y: 5, [1, 2, 3, 255])
        let data = try Self.encode([a, b, b])
        let index = try Self.index(data)
        #expect(
            index.frames.map(\.rect) == [
                PixelRect(x: 0, y: 0, width: 16, height: 16),
                PixelRect(x: 9, y: 5, width: 1, height: 1),
                PixelRect(x: 0, y: 0, width: 1, height: 1),
            ])
        let source = try GIFCoder().makeFrameSource(data: data, options: .default)
        #expect(try source.decodeFrame(at: 1) == b)
        #expect(try source.decodeFrame(at: 2) == b)
    }

    @Test func framesSharingColoursUseTheGlobalTable() throws {
        let a = Self.canvas(8, 8) { x, _ in x < 4 ? [255, 0, 0, 255] : [0, 0, 255, 255] }
        let b = Self.canvas(8, 8) { x, _ in x < 4 ? [0, 0, 255, 255] : [255, 0, 0, 255] }
        let data = try Self.encode([a, b, a])
        // A global table cut to what it holds (red, blue, the transparent slot: 4 entries) and
        // no local table in any frame (bit 7 of each image descriptor's packed field, its 9th
        // byte after the separator).
        #expect(data[10] & 0x80 != 0)
        #expect(data[10] & 0x07 == 1)
        #expect(data[13 + 3 * 4] == 0x21)  // the loop extension follows the 4 entries at once
        #expect(try GIFCoder().makeFrameSource(data: data, options: .default).decodeFrame(at: 1) == b)
        let index = try Self.index(data)
        for f in index.frames { #expect(data[f.descriptorOffset + 8] & 0x80 == 0) }
    }

    @Test func newColoursFillTheGlobalTableInsteadOfLocalOnes() throws {
        // Frame 0 has 20 colours (table of 32 entries); each later frame brings 2 new ones.
        let frames = (0..<4).map { k in
            Self.canvas(10, 2) { x, y in y == 0 ? [UInt8(x * 20), 50, 60, 255] : [UInt8(x * 20), UInt8(100 + (k > 0 && x < 2 ? k : 0)), 60, 255] }
        }
        let data = try Self.encode(frames)
        let index = try Self.index(data)
        for f in index.frames { #expect(data[f.descriptorOffset + 8] & 0x80 == 0) }
        let source = try GIFCoder().makeFrameSource(data: data, options: .default)
        for (i, c) in frames.enumerated() { #expect(try source.decodeFrame(at: i) == c) }
    }

    @Test func aStillGetsATableOfJustItsColours() throws {
        let still = Self.canvas(10, 4) { x, _ in [UInt8(x / 2 * 50), 10, 20, 255] }  // 5 colours
        let data = try Self.encode([still])
        #expect(data[10] & 0x07 == 2)  // 8 entries: the 5 colours and the transparent slot
        #expect(try GIFCoder().makeFrameSource(data: data, options: .default).decodeFrame(at: 0) == still)
    }

    /// An animation's global table leaves room for colours that come later, and a frame
    /// that uses only its low entries is coded with the bits those need (the LZW minimum
    /// code size byte after each image descriptor), not the table's.
    @Test func framesOnTheGlobalTableUseTheBitsTheirIndicesNeed() throws {
        let few = Self.canvas(20, 4) { x, _ in [UInt8(x / 4 * 50), 10, 20, 255] }  // 5 colours
        let many = Self.canvas(20, 4) { x, _ in [UInt8(x * 12), 200, 20, 255] }  // 20 others
        let data = try Self.encode([few, many, few])
        #expect(data[10] & 0x07 == 4)  // 32 entries
        let index = try Self.index(data)
        for f in index.frames { #expect(data[f.descriptorOffset + 8] & 0x80 == 0) }
        #expect(index.frames.map { data[$0.descriptorOffset + 9] } == [3, 5, 3])
        let source = try GIFCoder().makeFrameSource(data: data, options: .default)
        for (i, c) in [few, many, few].enumerated() { #expect(try source.decodeFrame(at: i) == c, "frame \(i)") }
    }

    @Test func transparencyAppearingOverOpaquePixelsClearsThePreviousFrame() throws {
        let a = Self.canvas(6, 6) { _, _ in [0, 200, 0, 255] }
        let b = Self.canvas(6, 6) { x, y in x == 2 && y == 3 ? [0, 0, 0, 0] : [0, 200, 0, 255] }
        let data = try Self.encode([a, b])
        let index = try Self.index(data)
        #expect(index.frames[0].disposal == .background)
        let source = try GIFCoder().makeFrameSource(data: data, options: .default)
        #expect(PixelComparison.firstMismatch(expected: b, got: try source.decodeFrame(at: 1), tolerance: 0) == nil)
    }

    @Test func durationsRoundToCentisecondsAndShortOnesStayVisible() throws {
        #expect(GIFEncoder.centiseconds(for: .milliseconds(0)) == 0)
        #expect(GIFEncoder.centiseconds(for: .milliseconds(4)) == 0)
        #expect(GIFEncoder.centiseconds(for: .milliseconds(10)) == 1)  // shown as 100 ms, as the source is
        #expect(GIFEncoder.centiseconds(for: .milliseconds(11)) == 2)  // 11 ms would round to 1 cs = 100 ms shown
        #expect(GIFEncoder.centiseconds(for: .milliseconds(14)) == 2)
        #expect(GIFEncoder.centiseconds(for: .milliseconds(15)) == 2)
        #expect(GIFEncoder.centiseconds(for: .milliseconds(33)) == 3)
        #expect(GIFEncoder.centiseconds(for: .milliseconds(35)) == 4)
        #expect(GIFEncoder.centiseconds(for: FrameDuration(numerator: 1, denominator: 30)) == 3)
        #expect(GIFEncoder.centiseconds(for: .seconds(1000)) == 65535)
        let c = Self.canvas(2, 2) { _, _ in [1, 2, 3, 255] }
        let d = Self.canvas(2, 2) { _, _ in [4, 5, 6, 255] }
        let data = try Self.encode([c, d, c], durations: [.milliseconds(70), .milliseconds(12), .zero])
        let info = try GIFCoder().makeFrameSource(data: data, options: .default).info
        #expect(info.frameDurations == [.centiseconds(7), .centiseconds(2), .zero])
    }

    @Test func loopCountRules() throws {
        #expect(try GIFEncoder.netscapeLoopValue(for: .infinite) == 0)
        #expect(try GIFEncoder.netscapeLoopValue(for: .once) == nil)
        #expect(try GIFEncoder.netscapeLoopValue(for: .plays(2)) == 1)
        #expect(try GIFEncoder.netscapeLoopValue(for: .plays(65536)) == 65535)
        // More plays than GIF stores: its most (a warning is the tool's).
        #expect(try GIFEncoder.netscapeLoopValue(for: .plays(65537)) == 65535)
        #expect(throws: AnimatedImageError.invalidArgument("GIF stores 1…65536 plays (or forever), got 0")) {
            try GIFEncoder.netscapeLoopValue(for: .plays(0))
        }
        let c = Self.canvas(2, 2) { _, _ in [1, 2, 3, 255] }
        for (loop, stored) in [(LoopCount.infinite, Optional(0)), (.once, nil), (.plays(5), 4)] {
            let info = try GIFCoder().makeFrameSource(data: try Self.encode([c, c], loop: loop), options: .default).info
            #expect(info.loopCount == loop)
            #expect(info.storedLoopValue == stored)
        }
    }

    @Test func premultipliedInputIsUnpremultipliedFirst() throws {
        let straight = Self.canvas(3, 1) { x, _ in [[255, 0, 255, 255], [0, 0, 0, 0], [9, 8, 7, 255]][x] }
        var premultiplied = straight
        premultiplied.premultiplyAlpha()
        #expect(try Self.encode([straight]) == Self.encode([premultiplied]))
    }

    @Test func badArguments() {
        #expect(throws: AnimatedImageError.invalidArgument("GIF canvases are 1…65535 pixels a side, got 0×4")) {
            try GIFEncoder().makeWriter(canvasSize: PixelSize(width: 0, height: 4), options: EncodingOptions())
        }
        #expect(throws: AnimatedImageError.invalidArgument("GIFEncoder needs at least one frame")) {
            try GIFEncoder().makeWriter(canvasSize: PixelSize(width: 4, height: 4), options: EncodingOptions()).finish()
        }
        #expect(throws: AnimatedImageError.invalidArgument("frame 0 is 3×3, the canvas is 4×4")) {
            try GIFEncoder().makeWriter(canvasSize: PixelSize(width: 4, height: 4), options: EncodingOptions())
                .add(EncodingFrame(pixels: PixelBuffer(width: 3, height: 3), duration: .zero))
        }
    }
}

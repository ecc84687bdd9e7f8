import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// 16-bit APNG: written from RGBA16 frames, decoded to RGBA16 without rounding, composited
/// at 16 bits, and rounded exactly when RGBA8 is asked for.
@Suite struct APNGDeepPixelTests {
    static let size = PixelSize(width: 9, height: 7)

    /// Values no 8-bit sample can hold (not multiples of 257), with alpha varying too.
    static func frame(_ k: Int, alpha: (Int, Int) -> UInt16 = { x, y in UInt16(65_535 - (x * 7 + y) * 911) }) -> PixelBuffer {
        var b = PixelBuffer(width: size.width, height: size.height, format: .rgba16)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let r = UInt16((x * 7_001 + y * 13 + k * 3_331) % 65_536)
                let g = UInt16((y * 9_017 + x * 5 + k * 101) % 65_536)
                let bl = UInt16((x * y * 1_009 + k * 7) % 65_536)
                b.setPixel16(x: x, y: y, [r, g, bl, alpha(x, y)])
            }
        }
        return b
    }

    static func frames() -> [EncodingFrame] {
        var second = frame(0)
        // Frame 1 changes a 3×2 patch only, so it is stored as a sub-rectangle.
        for y in 2..<4 { for x in 4..<7 { second.setPixel16(x: x, y: y, [1, 2, 65_534, 40_001]) } }
        return [frame(0), second, frame(2)].map { EncodingFrame(pixels: $0, duration: .milliseconds(70)) }
    }

    static func decode(_ data: Data, _ format: PixelFormat) throws -> [PixelBuffer] {
        let source = try APNGCoder().makeFrameSource(data: data, options: DecodingOptions(pixelFormat: format))
        return try (0..<source.info.frameCount).map { try source.decodeFrame(at: $0) }
    }

    @Test func sixteenBitFramesRoundTripExactly() throws {
        let frames = Self.frames()
        let data = try APNGEncoder().encode(frames, canvasSize: Self.size, options: EncodingOptions())
        let source = try APNGCoder().makeFrameSource(data: data, options: DecodingOptions(pixelFormat: .rgba16))
        #expect(source.info.bitsPerChannel == 16)
        #expect(source.info.isDeep)
        for (i, f) in frames.enumerated() {
            let got = try source.decodeFrame(at: i)
            #expect(got.format == .rgba16)
            #expect(got.packedBytes == f.pixels.packedBytes, "frame \(i)")
        }
        // The IHDR says 16 bits, RGBA: depth 16, colour type 6.
        let ihdr = try #require(APNGEncoder.chunks(of: data).first { $0.type == PNGChunkType.IHDR })
        #expect(Array(ihdr.payload)[8...9] == [16, 6])
    }

    @Test func rgba8OfADeepFileIsTheNearestValue() throws {
        let frames = Self.frames()
        let data = try APNGEncoder().encode(frames, canvasSize: Self.size, options: EncodingOptions())
        let eight = try Self.decode(data, .rgba8)
        for (i, f) in frames.enumerated() {
            #expect(eight[i].format == .rgba8)
            #expect(eight[i].packedBytes == f.pixels.converted(to: .eight).packedBytes, "frame \(i)")
        }
    }

    @Test func an8BitFileDecodedDeepIsWidenedExactly() throws {
        let frames = Self.frames().map { EncodingFrame(pixels: $0.pixels.converted(to: .eight), duration: $0.duration) }
        let data = try APNGEncoder().encode(frames, canvasSize: Self.size, options: EncodingOptions())
        let source = try APNGCoder().makeFrameSource(data: data, options: DecodingOptions(pixelFormat: .rgba16))
        #expect(source.info.bitsPerChannel == 8)
        for (i, f) in frames.enumerated() {
            #expect(try source.decodeFrame(at: i).packedBytes == f.pixels.converted(to: .sixteen).packedBytes, "frame \(i)")
        }
    }

    /// Frame 1 of the encoder's file turned into a blend-OVER frame: its patch is drawn over
    /// frame 0 at 16 bits, by the straight-alpha rule in integers.
    @Test func overBlendsAtSixteenBits() throws {
        let frames = Self.frames()
        var data = try APNGEncoder().encode(frames, canvasSize: Self.size, options: EncodingOptions())
        var out = Data(APNGCoder.signature)
        var fctls = 0
        for var c in APNGEncoder.chunks(of: data) {
            if c.type == PNGChunkType.fcTL {
                if fctls == 1 { c.payload[c.payload.startIndex + 25] = 1 }  // blend_op OVER
                fctls += 1
            }
            APNGEncoder.appendChunk(&out, c.type, c.payload)
        }
        data = out
        let got = try Self.decode(data, .rgba16)[1]
        let under = frames[0].pixels
        for y in 0..<Self.size.height {
            for x in 0..<Self.size.width {
                let inPatch = (2..<4).contains(y) && (4..<7).contains(x)
                let d = under.pixel16(x: x, y: y)
                guard inPatch else {
                    #expect(got.pixel16(x: x, y: y) == d)
                    continue
                }
                let s: [UInt16] = [1, 2, 65_534, 40_001]
                let sa = Double(s[3]) / 65_535, da = Double(d[3]) / 65_535
                let oa = sa + da * (1 - sa)
                let expected = (0..<3).map { c in (Double(s[c]) * sa + Double(d[c]) * da * (1 - sa)) / oa } + [oa * 65_535]
                for c in 0..<4 {
                    #expect(abs(Double(got.pixel16(x: x, y: y)[c]) - expected[c]) <= 1, "(\(x),\(y)) channel \(c)")
                }
            }
        }
    }

    @Test func premultipliedAndDownsampledDeepOutput() throws {
        let frames = Self.frames()
        let data = try APNGEncoder().encode(frames, canvasSize: Self.size, options: EncodingOptions())
        let premultiplied = try Self.decode(data, .rgba16Premultiplied)[0]
        #expect(premultiplied.format == .rgba16Premultiplied)
        let straight = frames[0].pixels
        for y in 0..<Self.size.height {
            for x in 0..<Self.size.width {
                let s = straight.pixel16(x: x, y: y), p = premultiplied.pixel16(x: x, y: y)
                for c in 0..<3 {
                    let expected = (Double(s[c]) * Double(s[3]) / 65_535).rounded()
                    #expect(abs(Double(p[c]) - expected) <= 1)
                }
                #expect(p[3] == s[3])
            }
        }
        var options = DecodingOptions(pixelFormat: .rgba16)
        options.targetSize = PixelSize(width: 3, height: 3)
        let small = try APNGCoder().makeFrameSource(data: data, options: options).decodeFrame(at: 0)
        #expect(small.format == .rgba16)
        #expect(small.size == PixelSize(width: 3, height: 2))
        // The 8-bit box filter of the rounded frame is within one 8-bit step of it.
        var eightBit = PixelBuffer()
        straight.converted(to: .eight).copy(into: &eightBit, size: small.size, format: .rgba8)
        for y in 0..<2 {
            for x in 0..<3 {
                for c in 0..<4 {
                    let deep = Double(small.pixel16(x: x, y: y)[c]) / 257, shallow = Double(eightBit.pixel(x: x, y: y)[c])
                    #expect(abs(deep - shallow) <= 1, "(\(x),\(y)) channel \(c)")
                }
            }
        }
    }

    @Test func deepSessionsCountTheirSixteenBitPixelsAgainstTheLimits() throws {
        let data = try APNGEncoder().encode(Self.frames(), canvasSize: Self.size, options: EncodingOptions())
        func opens(_ format: PixelFormat, allowing bytes: Int) -> Bool {
            var limits = Limits.default
            limits.maxAllocationBytes = bytes
            return (try? APNGCoder().makeFrameSource(data: data, options: DecodingOptions(pixelFormat: format, limits: limits))) != nil
        }
        // The least allowance an RGBA8 session opens with.
        var low = 0, high = 1 << 20
        while low < high {
            let mid = (low + high) / 2
            if opens(.rgba8, allowing: mid) { high = mid } else { low = mid + 1 }
        }
        #expect(opens(.rgba8, allowing: low))
        // RGBA16 holds a canvas of twice the bytes: refused there, opened with that much more.
        let canvasBytes = Self.size.width * Self.size.height * 4
        #expect(!opens(.rgba16, allowing: low))
        #expect(opens(.rgba16, allowing: low + canvasBytes))
    }

    /// A bulk run (frames' data decoded on workers, composited in order) gives the frames
    /// one after another does, at 16 bits.
    @Test func bulkRunsDecodeSixteenBitFramesAsOneAtATimeDoes() throws {
        var frames = Self.frames()
        frames += frames.reversed()
        let data = try APNGEncoder().encode(frames, canvasSize: Self.size, options: EncodingOptions())
        let check = BulkDecodingCheck { try APNGCoder().makeFrameSource(data: data, options: DecodingOptions(pixelFormat: .rgba16)) }
        #expect(try check.violations(threads: [1, 2, 3]).isEmpty)
        #expect(try check.bulk(threads: 2).threads == 2)
        #expect(try Self.decode(data, .rgba16).map(\.packedBytes) == frames.map(\.pixels.packedBytes))
    }

    /// An incremental session decodes at 8 bits (Docs/Colour.md): asked for RGBA16 it gives
    /// the nearest 8-bit values widened, and reports the file's depth.
    @Test func incrementalSessionsWidenTheirEightBitFrames() throws {
        let frames = Self.frames()
        let data = try APNGEncoder().encode(frames, canvasSize: Self.size, options: EncodingOptions())
        let source = APNGCoder().makeIncrementalSource(options: DecodingOptions(pixelFormat: .rgba16))
        let bytes = [UInt8](data)
        try source.append(bytes[..<(bytes.count / 2)])
        try source.append(bytes[(bytes.count / 2)...])
        let info = try source.finish()
        #expect(info.bitsPerChannel == 16)
        for (i, f) in frames.enumerated() {
            let got = try source.decodeFrame(at: i)
            #expect(got.format == .rgba16)
            #expect(got.packedBytes == f.pixels.converted(to: .eight).converted(to: .sixteen).packedBytes, "frame \(i)")
        }
    }
}

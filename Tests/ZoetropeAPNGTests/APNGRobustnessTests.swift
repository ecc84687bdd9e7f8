import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// Hostile and odd APNGs: zlib streams far longer than their frames, frame data
/// that ends early, and files asking for more work than `Limits` allow.
@Suite struct APNGRobustnessTests {
    /// 1×1 canvas: frame 0 is the red IDAT image, frame 1 (SOURCE) is `zlib` as fdAT data.
    static func oneByOne(frame1 zlib: [UInt8]) -> Data {
        var w = APNGWriter()
        w.append("IHDR", APNGWriter.ihdr(width: 1, height: 1))
        w.append("acTL", APNGWriter.actl(frameCount: 2, plays: 0))
        w.append("fcTL", APNGWriter.fctl(sequence: 0, width: 1, height: 1))
        w.append("IDAT", APNGWriter.zlibStored(APNGWriter.scanlines(rgba: Fixture.red, width: 1, height: 1)))
        w.append("fcTL", APNGWriter.fctl(sequence: 1, width: 1, height: 1))
        w.append("fdAT", APNGWriter.fdat(sequence: 2, zlib))
        w.append("IEND", [])
        return w.data
    }

    static let blueRow = APNGWriter.scanlines(rgba: Fixture.blue, width: 1, height: 1)

    @Test func aLongZlibStreamBehindA1x1FrameIsNotInflated() throws {
        // 325 KB of stream that would inflate to 52 MB; the frame needs 5 bytes of it.
        let bomb = APNGWriter.zlibRepeating(prefix: Self.blueRow, copies: 200_000, terminated: false)
        #expect(bomb.count > 300_000)
        let data = Self.oneByOne(frame1: bomb)
        let index = try data.withUnsafeBytes { try APNGChunkWalker.index($0, limits: .default) }
        #expect(index.format == .apng)
        var stream = PNGFrameStream()
        var pixel = [UInt8](repeating: 0, count: 4)
        let outcome = try data.withUnsafeBytes { file in
            try stream.prepare(index.frames[1], index: index, file: file, format: .apng)
            return try pixel.withUnsafeMutableBytes { dst in
                try stream.decode(
                    index.frames[1], file: file, into: dst.baseAddress!, bytesPerRow: 4,
                    limits: .default, format: .apng)
            }
        }
        #expect(outcome.broken == nil)
        #expect(pixel == Fixture.blue)
        // The headers plus at most one 8 KiB read buffer of compressed data, not the stream.
        #expect(outcome.bytesRead < 16_384, "libpng read \(outcome.bytesRead) bytes")
        #expect(try Fixture.frames(data).map(\.bytes) == [Fixture.red, Fixture.blue])
    }

    @Test func dataPastTheLastRowIsIgnoredAsInChromium() throws {
        let excess = APNGWriter.zlibRepeating(prefix: Self.blueRow, copies: 1_000)
        #expect(try Fixture.frames(Self.oneByOne(frame1: excess)).map(\.bytes) == [Fixture.red, Fixture.blue])
        // Rows complete, then a stream that never ends: still the whole frame.
        let open = APNGWriter.zlibRepeating(prefix: Self.blueRow, copies: 10, terminated: false)
        #expect(try Fixture.frames(Self.oneByOne(frame1: open)).map(\.bytes) == [Fixture.red, Fixture.blue])
    }

    @Test func firstAnimationFrameWithShortDataShowsTheRowsItHas() throws {
        // The IDAT image is not part of the animation; the only frame's fdAT inflates to one
        // row of two. info, frames and the player see the same single frame.
        var w = APNGWriter()
        w.append("IHDR", APNGWriter.ihdr(width: 1, height: 2))
        w.append("acTL", APNGWriter.actl(frameCount: 1, plays: 0))
        w.append("IDAT", APNGWriter.zlibStored(APNGWriter.scanlines(rgba: Fixture.red + Fixture.red, width: 1, height: 2)))
        w.append("fcTL", APNGWriter.fctl(sequence: 0, width: 1, height: 2))
        w.append("fdAT", APNGWriter.fdat(sequence: 1, APNGWriter.zlibStored(Self.blueRow)))
        w.append("IEND", [])
        let source = try Fixture.source(w.data)
        #expect(source.info.format == .apng)
        #expect(source.info.frameCount == 1)
        #expect(source.info.truncation == nil)
        #expect(try source.decodeFrame(at: 0).bytes == Fixture.blue + Fixture.clear)
        // Again (a fresh canvas each time), the same answer.
        #expect(try source.decodeFrame(at: 0).bytes == Fixture.blue + Fixture.clear)
    }

    @Test func laterOverFrameWithShortDataLeavesWhatIsUnderTheMissingRows() throws {
        let frames: [APNGWriter.Frame] = [
            .solid(width: 1, height: 3, Fixture.red),
            .solid(width: 1, height: 3, Fixture.green, blendOp: 1),
            .solid(width: 1, height: 3, Fixture.blue),
        ]
        var w = APNGWriter.animation(width: 1, height: 3, frames: frames)
        // Frame 1's data: one row of three.
        let k = try #require(w.chunks.indices.filter { w.chunks[$0].type == "fdAT" }.first)
        w.chunks[k].payload = APNGWriter.fdat(
            sequence: 2,
            APNGWriter.zlibStored(
                APNGWriter.scanlines(rgba: Fixture.green, width: 1, height: 1)))
        let source = try Fixture.source(w.data)
        #expect(source.info.frameCount == 3)
        let decoded = try (0..<3).map { try source.decodeFrame(at: $0).bytes }
        #expect(decoded[0] == Fixture.fill(1, 3, Fixture.red))
        #expect(decoded[1] == Fixture.green + Fixture.red + Fixture.red)
        #expect(decoded[2] == Fixture.fill(1, 3, Fixture.blue))
        // Random access gives the same frame.
        #expect(try source.decodeFrame(at: 1).bytes == decoded[1])
    }

    @Test func laterSourceFrameWithShortDataIsTransparentBelowItsRows() throws {
        var w = APNGWriter.animation(
            width: 1, height: 2,
            frames: [
                .solid(width: 1, height: 2, Fixture.red), .solid(width: 1, height: 2, Fixture.green),
            ])
        let k = try #require(w.chunks.indices.filter { w.chunks[$0].type == "fdAT" }.first)
        w.chunks[k].payload = APNGWriter.fdat(
            sequence: 2,
            APNGWriter.zlibStored(
                APNGWriter.scanlines(rgba: Fixture.green, width: 1, height: 1)))
        #expect(try Fixture.frames(w.data).map(\.bytes) == [Fixture.fill(1, 2, Fixture.red), Fixture.green + Fixture.clear])
    }

    @Test func interlacedFrameWithShortDataKeepsItsCompletePasses() {
        // Which pixels of an 8×8 block survive a break in pass 5 at row 2: passes 0–4 (every
        // even column of even rows, all of them) and pass 5's pixels of rows 0 (odd columns).
        var pixels = [UInt8](repeating: 9, count: 8 * 8 * 4)
        pixels.withUnsafeMutableBytes {
            PNGRowCoverage.clearUndecoded($0.baseAddress!, bytesPerRow: 32, width: 8, height: 8, interlaced: true, pass: 5, row: 2)
        }
        let kept = (0..<64).map { pixels[$0 * 4] == 9 }
        let expected = (0..<64).map { i -> Bool in
            let x = i % 8, y = i / 8
            if y % 2 == 1 { return false }  // pass 6
            if x % 2 == 0 { return true }  // passes 0–4
            return y < 2  // pass 5, rows before the break
        }
        #expect(kept == expected)
    }

    @Test func manyFramesOnALargeCanvasAreRefusedByPixelsPerPlay() throws {
        // 1×1 frames on a 4096×4096 canvas: each play composites 2^24 pixels per frame.
        var w = APNGWriter()
        w.append("IHDR", APNGWriter.ihdr(width: 4096, height: 4096))
        w.append("acTL", APNGWriter.actl(frameCount: 100, plays: 0))
        w.append("IDAT", APNGWriter.zlibStored([0]))  // not part of the animation
        var sequence: UInt32 = 0
        for _ in 0..<100 {
            w.append("fcTL", APNGWriter.fctl(sequence: sequence, width: 1, height: 1))
            w.append("fdAT", APNGWriter.fdat(sequence: sequence + 1, APNGWriter.zlibStored(Self.blueRow)))
            sequence += 2
        }
        w.append("IEND", [])
        let pixels = 4096 * 4096
        #expect(
            throws: AnimatedImageError.limitExceeded(
                format: .apng, limit: .pixelsPerPlay,
                requested: 65 * pixels, allowed: 1 << 30)
        ) {
            try Fixture.source(w.data)
        }
    }

    @Test func aLargeCanvasCostsNothingToOpenAndOnlyWhatItsFramesDrawToDecode() throws {
        var w = APNGWriter()
        w.append("IHDR", APNGWriter.ihdr(width: 4096, height: 4096))
        w.append("acTL", APNGWriter.actl(frameCount: 1, plays: 0))
        w.append("IDAT", APNGWriter.zlibStored([0]))
        w.append("fcTL", APNGWriter.fctl(sequence: 0, width: 1, height: 1))
        w.append("fdAT", APNGWriter.fdat(sequence: 1, APNGWriter.zlibStored(Self.blueRow)))
        w.append("IEND", [])
        let source = try Fixture.source(w.data)
        #expect(source.retainedByteCount < 1 << 20)
        let frame = try source.decodeFrame(at: 0)
        #expect(frame.size == PixelSize(width: 4096, height: 4096))
        #expect(frame.pixel(x: 0, y: 0) == Fixture.blue && frame.pixel(x: 1, y: 0) == [0, 0, 0, 0])
        // The canvas holds the one pixel the frame draws (the default image is not a frame).
        #expect(source.retainedByteCount < 1 << 20)
    }
}

extension APNGRobustnessTests {
    @Test func interlacedImageWhoseDataEndsInAPassKeepsTheEarlierPasses() throws {
        // 8×8 Adam7: passes 0–4 complete, then the first two rows of pass 5 (y = 0, 2).
        var rgba: [UInt8] = []
        for i in 0..<64 { rgba += [UInt8(i % 8 * 30), UInt8(i / 8 * 30), 100, 255] }
        let raw = APNGWriter.adam7Scanlines(rgba: rgba, width: 8, height: 8)
        // Bytes of passes 0–4 (one filter byte plus the pixels per row): 1×1, 1×1, 2×1, 2×2, 4×2.
        let rowBytes: [Int] = [5, 5, 9, 9, 9, 17, 17]
        let passes04 = rowBytes.reduce(0, +)
        var w = APNGWriter()
        w.append("IHDR", APNGWriter.ihdr(width: 8, height: 8, interlace: 1))
        w.append("IDAT", APNGWriter.zlibStored(Array(raw[0..<passes04 + 2 * 17])))
        w.append("IEND", [])
        let frame = try Fixture.source(w.data).decodeFrame(at: 0)
        for y in 0..<8 {
            for x in 0..<8 {
                let kept: Bool = y % 2 == 0 && (x % 2 == 0 || y < 4)
                let o: Int = (y * 8 + x) * 4
                let expected: [UInt8] = kept ? Array(rgba[o..<o + 4]) : Fixture.clear
                #expect(frame.pixel(x: x, y: y) == expected, "pixel \(x),\(y)")
            }
        }
        // The whole stream decodes to every pixel.
        var full = APNGWriter()
        full.append("IHDR", APNGWriter.ihdr(width: 8, height: 8, interlace: 1))
        full.append("IDAT", APNGWriter.zlibStored(raw))
        full.append("IEND", [])
        #expect(try Fixture.source(full.data).decodeFrame(at: 0).bytes == rgba)
    }
}

import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeWebP

/// `DecodingOptions.showsPartialFirstFrame` for WebP: a first frame whose image chunk has
/// not all arrived shows the rows libwebp's incremental decoder has finished, the rest
/// transparent; off, nothing changes.
@Suite struct WebPPartialFirstFrameTests {
    static let partial = DecodingOptions(showsPartialFirstFrame: true)

    /// 64×64 of noise with smooth bands (large enough to arrive in many pieces).
    static func picture(seed: UInt64) -> PixelBuffer {
        var rng = SplitMix64(seed: seed)
        var b = PixelBuffer(width: 64, height: 64)
        for y in 0..<64 {
            for x in 0..<64 {
                let r = UInt8(truncatingIfNeeded: rng.next())
                b.setPixel(x: x, y: y, [r, UInt8(y * 4), UInt8(x * 4), 255])
            }
        }
        return b
    }

    /// An animation (lossless or lossy) and stills, with where frame 0's image chunk lies.
    static func files() throws -> [(name: String, bytes: [UInt8], image: Range<Int>)] {
        let animation = { (quality: Int?) in
            try WebPFixture.animation(
                canvas: PixelSize(width: 64, height: 64),
                frames: [
                    .init(pixels: picture(seed: 1), durationMs: 40, lossyQuality: quality),
                    .init(pixels: picture(seed: 2), durationMs: 50, lossyQuality: quality),
                ], loopCount: 0)
        }
        let files: [(String, Data)] = [
            ("lossless animation", try animation(nil)),
            ("lossy animation", try animation(90)),
            ("lossless still", try WebPFixture.still(picture(seed: 3))),
            ("lossy still", try WebPFixture.still(picture(seed: 4), lossyQuality: 90)),
        ]
        return try files.map { name, data in
            let b = [UInt8](data)
            // The first ANMF's image chunk, or the still's VP8/VP8L chunk.
            var o = 12, image: Range<Int>?
            while o + 8 <= b.count, image == nil {
                let tag = String(decoding: b[o..<o + 4], as: UTF8.self)
                let size = Int(b[o + 4]) | Int(b[o + 5]) << 8 | Int(b[o + 6]) << 16 | Int(b[o + 7]) << 24
                if tag == "ANMF" {
                    let inner = o + 24
                    let s = Int(b[inner + 4]) | Int(b[inner + 5]) << 8 | Int(b[inner + 6]) << 16 | Int(b[inner + 7]) << 24
                    image = inner..<(inner + 8 + s)
                } else if tag == "VP8 " || tag == "VP8L" {
                    image = o..<(o + 8 + size)
                }
                o += 8 + size + (size & 1)
            }
            return (name, b, try #require(image, "\(name): no image chunk"))
        }
    }

    @Test func aFileCutInsideFrameZeroShowsItsFinishedRowsOnlyWhenAsked() throws {
        for (name, bytes, image) in try Self.files() {
            let whole = try WebPCoder().makeFrameSource(data: Data(bytes), options: .default).decodeFrame(at: 0)
            let cut = Data(bytes[..<(image.lowerBound + image.count * 8 / 10)])
            #expect(throws: AnimatedImageError.self, "\(name)") { try WebPCoder().makeFrameSource(data: cut, options: .default) }
            let source = try WebPCoder().makeFrameSource(data: cut, options: Self.partial)
            #expect(source.info.frameCount == 1, "\(name)")
            #expect(source.info.truncation != nil, "\(name)")
            let rows = try #require(PixelComparison.decodedRows(try source.decodeFrame(at: 0), of: whole), "\(name)")
            #expect(rows > 0 && rows < 64, "\(name): \(rows) rows")
        }
    }

    @Test func anIncrementalSourceCountsFrameZeroWhileItArrives() throws {
        for (name, bytes, image) in try Self.files() {
            let wholeSource = try WebPCoder().makeFrameSource(data: Data(bytes), options: .default)
            let whole = try wholeSource.decodeFrame(at: 0)
            let source = WebPCoder().makeIncrementalSource(options: Self.partial)
            try source.append(bytes[..<(image.lowerBound + 40)])
            var offset = image.lowerBound + 40, rows = 0, partials = 0
            while offset < image.upperBound - 1 {
                let next = min(image.upperBound - 1, offset + image.count / 10)
                let snapshot = try source.append(bytes[offset..<next])
                offset = next
                #expect(snapshot.firstFrameIsPartial, "\(name) at \(next)")
                #expect(snapshot.frameCount == 1, "\(name) at \(next)")
                let n = try #require(PixelComparison.decodedRows(try source.decodeFrame(at: 0), of: whole), "\(name) at \(next)")
                #expect(n >= rows, "\(name) at \(next)")
                rows = n
                partials += 1
            }
            #expect(partials >= 9, "\(name)")
            #expect(rows > 32, "\(name): \(rows) rows before the last byte")
            try source.append(bytes[offset...])
            #expect(!source.snapshot.firstFrameIsPartial, "\(name)")
            #expect(try source.finish() == wholeSource.info, "\(name)")
            #expect(try source.decodeFrame(at: 0) == whole, "\(name)")
        }
    }
}

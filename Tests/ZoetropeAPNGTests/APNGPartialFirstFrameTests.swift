import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// `DecodingOptions.showsPartialFirstFrame` for PNG and APNG: a first frame whose IDAT run
/// has not all arrived shows the rows of its complete chunks, the rest transparent.
@Suite struct APNGPartialFirstFrameTests {
    static let partial = DecodingOptions(showsPartialFirstFrame: true)

    /// A 32×32 picture in eight IDAT chunks; `animated` puts an fcTL before them (frame 0 of
    /// two frames, the second in fdAT). Returns the file and where each IDAT chunk ends.
    static func file(animated: Bool) -> (bytes: [UInt8], idatEnds: [Int]) {
        let (w, h) = (32, 32)
        var rgba: [UInt8] = []
        for y in 0..<h { for x in 0..<w { rgba += [UInt8(x * 8), UInt8(y * 8), 200, 255] } }
        var png = APNGWriter()
        png.append("IHDR", APNGWriter.ihdr(width: w, height: h))
        let frame = APNGWriter.Frame(width: w, height: h, rgba: rgba, delayNumerator: 3, delayDenominator: 100)
        if animated {
            png.append("acTL", APNGWriter.actl(frameCount: 2, plays: 0))
            png.append("fcTL", APNGWriter.fctl(sequence: 0, frame: frame))
        }
        let z = APNGWriter.zlibStored(APNGWriter.scanlines(rgba: rgba, width: w, height: h))
        let piece = (z.count + 7) / 8
        var idatEnds: [Int] = []
        for start in stride(from: 0, to: z.count, by: piece) {
            png.append("IDAT", Array(z[start..<min(z.count, start + piece)]))
            idatEnds.append(png.data.count)
        }
        if animated {
            var second = frame
            second.rgba = [UInt8](repeating: 90, count: w * h * 4)
            png.append("fcTL", APNGWriter.fctl(sequence: 1, frame: second))
            png.append("fdAT", APNGWriter.fdat(sequence: 2, APNGWriter.zlibStored(APNGWriter.scanlines(rgba: second.rgba, width: w, height: h))))
        }
        png.append("IEND", [])
        return ([UInt8](png.data), idatEnds)
    }

    @Test(arguments: [false, true])
    func aFileCutInsideItsImageDataShowsItsRowsOnlyWhenAsked(animated: Bool) throws {
        let (bytes, ends) = Self.file(animated: animated)
        let whole = try APNGCoder().makeFrameSource(data: Data(bytes), options: .default).decodeFrame(at: 0)
        // Cut in the middle of the fifth IDAT chunk.
        let cut = Data(bytes[..<((ends[3] + ends[4]) / 2)])
        #expect(throws: AnimatedImageError.self) { try APNGCoder().makeFrameSource(data: cut, options: .default) }
        let source = try APNGCoder().makeFrameSource(data: cut, options: Self.partial)
        #expect(source.info.frameCount == 1)
        #expect(source.info.truncation != nil)
        let rows = try #require(PixelComparison.decodedRows(try source.decodeFrame(at: 0), of: whole))
        // Four of eight chunks: about half of the 32 rows.
        #expect(rows >= 12 && rows <= 16, "\(rows) rows")
    }

    @Test(arguments: [false, true])
    func anIncrementalSourceCountsFrameZeroWhileItsIDATRunArrives(animated: Bool) throws {
        let (bytes, ends) = Self.file(animated: animated)
        let wholeSource = try APNGCoder().makeFrameSource(data: Data(bytes), options: .default)
        let whole = try wholeSource.decodeFrame(at: 0)
        let source = APNGCoder().makeIncrementalSource(options: Self.partial)
        var offset = 0, rows = 0
        for end in ends.dropLast() {
            let snapshot = try source.append(bytes[offset..<end])
            offset = end
            #expect(snapshot.firstFrameIsPartial)
            #expect(snapshot.frameCount == 1)
            #expect(snapshot.format == (animated ? .apng : .png))
            let n = try #require(PixelComparison.decodedRows(try source.decodeFrame(at: 0), of: whole))
            #expect(n >= rows)
            rows = n
        }
        #expect(rows >= 24 && rows < 32)
        try source.append(bytes[offset...])
        #expect(!source.snapshot.firstFrameIsPartial)
        #expect(try source.finish() == wholeSource.info)
        #expect(try source.decodeFrame(at: 0) == whole)
        if animated { #expect(try source.decodeFrame(at: 1) == (try wholeSource.decodeFrame(at: 1))) }
    }
}

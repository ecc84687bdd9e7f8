import Foundation
import Testing
import Zoetrope
import ZoetropeAPNG
import ZoetropeEncoding
import ZoetropeTestSupport
import ZoetropeWebP

/// A frame that fails to decode after the first: `convert` (tool and API) keeps the frames
/// before it, warns and succeeds, as `frames` does.
@Suite struct ConvertBrokenFrameTests {
    static let colours: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 0, 255], [0, 255, 255, 255]]

    /// Five solid 4×4 frames; frame 3's fdAT has a wrong CRC.
    static func apngBrokenAtFrame3() throws -> Data {
        var w = APNGWriter.animation(width: 4, height: 4, frames: colours.map { .solid(width: 4, height: 4, $0) })
        let fdats = w.chunks.indices.filter { w.chunks[$0].type == "fdAT" }
        try #require(fdats.count == 4)
        w.chunks[fdats[2]].crcOverride = 0  // fdAT of frames 1, 2, 3, 4: the third is frame 3
        return w.data
    }

    /// The same five frames as a lossless WebP written by `WebPEncoder`; frame 3's VP8L
    /// bitstream after its header overwritten with 0xFF.
    static func webpBrokenAtFrame3() throws -> Data {
        let writer = try WebPEncoder().makeWriter(canvasSize: PixelSize(width: 4, height: 4), options: EncodingOptions(loopCount: .plays(2)))
        for (i, c) in colours.enumerated() {
            var pixels = PixelBuffer(width: 4, height: 4)
            pixels.bytes = Array((0..<16).map { _ in c }.joined())
            try writer.add(EncodingFrame(pixels: pixels, duration: .milliseconds(Int64(40 + 10 * i))))
        }
        var file = [UInt8](try writer.finish())
        var anmf: [Int] = []
        var p = 12
        while p + 8 <= file.count {
            let type = String(decoding: file[p..<(p + 4)], as: UTF8.self)
            let size = Int(file[p + 4]) | Int(file[p + 5]) << 8 | Int(file[p + 6]) << 16 | Int(file[p + 7]) << 24
            if type == "ANMF" { anmf.append(p) }
            p += 8 + size + (size & 1)
        }
        try #require(anmf.count == 5)
        // ANMF header (8) + frame fields (16), then the image chunk: its header (8) and the
        // VP8L signature and size (5).
        let frame = anmf[3] + 24
        let size = Int(file[frame + 4]) | Int(file[frame + 5]) << 8
        for i in (frame + 8 + 5)..<(frame + 8 + size) { file[i] = 0xFF }
        return Data(file)
    }

    static func expectFirstThreeFrames(_ output: Data) throws {
        let decoded = try ConvertFixtures.decode(output)
        #expect(decoded.info.frameCount == 3)
        for (i, frame) in decoded.frames.enumerated() {
            #expect(Array(frame.bytes.prefix(4)) == colours[i], "frame \(i)")
        }
    }

    @Test(arguments: ["apng", "webp"])
    func theToolConvertsTheFramesBeforeABrokenFrameAndWarns(_ kind: String) throws {
        let input = kind == "apng" ? try Self.apngBrokenAtFrame3() : try Self.webpBrokenAtFrame3()
        // The source is as described: three frames decode, then an error.
        let frames = try ConvertFixtures.registry.makeFrameSource(data: input)
        #expect(frames.info.frameCount == 5)
        _ = try frames.decodeFrame(at: 2)
        #expect(throws: AnimatedImageError.self) { try frames.decodeFrame(at: 3) }

        let (run, output, dir) = try ConvertFixtures.convert(input, inName: "in.\(kind == "apng" ? "png" : "webp")", outName: "out.gif")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning:") && run.stderr.contains("converted the 3 frames before it"), "\(run.stderr)")
        try Self.expectFirstThreeFrames(try #require(output))
    }

    @Test(arguments: ["apng", "webp"])
    func theAPIConvertsTheFramesBeforeABrokenFrameAndSaysWhy(_ kind: String) throws {
        let input = kind == "apng" ? try Self.apngBrokenAtFrame3() : try Self.webpBrokenAtFrame3()
        let source = try ConvertFixtures.registry.makeFrameSource(data: input)
        let writer = try WebPEncoder().makeWriter(canvasSize: source.outputSize, options: EncodingOptions())
        let (data, summary) = try AnimationConversion.run(source: source, writer: writer)
        #expect(summary.frameCount == 3)
        #expect(summary.outputByteCount == data.count)
        #expect(summary.truncation != nil)
        try Self.expectFirstThreeFrames(data)

        let image = try AnimatedImage(data: input, registry: ConvertFixtures.registry)
        try Self.expectFirstThreeFrames(try image.encoded(with: WebPEncoder()))
    }
}

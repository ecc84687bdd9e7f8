import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeAVIF

/// AVIFEncoder: sequences and stills that Zoetrope's decoder reads back with the same
/// frames, durations and plays; the edit list Zoetrope writes itself.
@Suite struct AVIFEncoderTests {
    static let size = PixelSize(width: 16, height: 12)

    static func frames(_ n: Int) -> [PixelBuffer] {
        (0..<n).map { k in
            var b = PixelBuffer(width: size.width, height: size.height)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    b.setPixel(x: x, y: y, x < 2 + k * 3 ? [200, UInt8(40 * k), 30, 255] : (y < 3 ? [0, 0, 0, 0] : [20, 90, 200, 128]))
                }
            }
            return b
        }
    }

    static func encode(
        _ canvases: [PixelBuffer], durations: [FrameDuration], loop: LoopCount,
        quality: Int? = nil, encoder: AVIFEncoder = AVIFEncoder(speed: 10)
    ) throws -> Data {
        let frames = zip(canvases, durations).map { EncodingFrame(pixels: $0, duration: $1) }
        return try encoder.encode(frames, canvasSize: size, options: EncodingOptions(loopCount: loop, quality: quality))
    }

    @Test func losslessSequenceRoundTripsWithExactDurationsAndPlays() throws {
        let canvases = Self.frames(3)
        let durations: [FrameDuration] = [.milliseconds(40), FrameDuration(numerator: 1, denominator: 30), .centiseconds(7)]
        let data = try Self.encode(canvases, durations: durations, loop: .plays(3))
        let source = try AVIFCoder().makeFrameSource(data: data, options: .default)
        #expect(source.info.frameCount == 3)
        #expect(source.info.frameDurations == durations)
        #expect(source.info.loopCount == .plays(3))
        for i in 0..<3 {
            #expect(PixelComparison.firstMismatch(expected: canvases[i], got: try source.decodeFrame(at: i), tolerance: 0) == nil, "frame \(i)")
        }
    }

    @Test(arguments: [LoopCount.infinite, .once, .plays(2), .plays(1000)])
    func playsSurviveTheEditList(loop: LoopCount) throws {
        let data = try Self.encode(Self.frames(2), durations: [.milliseconds(100), .milliseconds(50)], loop: loop, quality: 50)
        let source = try AVIFCoder().makeFrameSource(data: data, options: .default)
        #expect(source.info.loopCount == loop)
        #expect(source.info.frameDurations == [.milliseconds(100), .milliseconds(50)])
    }

    /// The movie, track and media headers store no clock time (libavif writes the current
    /// one), so encoding the same frames again gives the same bytes whenever it runs.
    @Test func aSequenceStoresNoClockTime() throws {
        let data = [UInt8](try Self.encode(Self.frames(2), durations: [.milliseconds(100), .milliseconds(50)], loop: .infinite))
        for name in ["mvhd", "tkhd", "mdhd"] {
            let type = Array(name.utf8)
            let at = try #require(data.indices.dropLast(4).first { Array(data[$0..<($0 + 4)]) == type }, "\(name)")
            let payload = at + 4, wide = data[payload] == 1, size = wide ? 8 : 4
            #expect(data[(payload + 4)..<(payload + 4 + 2 * size)].allSatisfy { $0 == 0 }, "\(name): creation and modification times")
        }
    }

    @Test func singleFrameIsAStill() throws {
        let data = try Self.encode(Self.frames(1), durations: [.milliseconds(100)], loop: .infinite, quality: 80)
        #expect(AVIFCoder().sniff(data) == .match(.avif, .still))
        let source = try AVIFCoder().makeFrameSource(data: data, options: .default)
        #expect(source.info.frameCount == 1)
    }

    @Test func lossyTenBit444StaysClose() throws {
        let canvases = Self.frames(2)
        let data = try Self.encode(
            canvases, durations: [.milliseconds(10), .milliseconds(20)], loop: .infinite, quality: 90,
            encoder: AVIFEncoder(speed: 10, depth: 10, chroma: .yuv444))
        let source = try AVIFCoder().makeFrameSource(data: data, options: .default)
        for i in 0..<2 {
            #expect(PixelComparison.firstMismatch(expected: canvases[i], got: try source.decodeFrame(at: i), tolerance: 24) == nil)
        }
    }

    @Test func editListBytesReadBackThroughTheDecodersParser() throws {
        // 1/30 s and 1/25 s: timescale 150, one play = 5 + 6 ticks.
        let timing = AVIFSequenceTiming(durations: [FrameDuration(numerator: 1, denominator: 30), .milliseconds(40)], loopCount: .plays(4))
        #expect(timing.timescale == 150)
        #expect(timing.sampleDurations == [5, 6])
        #expect(timing.trackDuration == 44)
        let box = try #require(timing.editListBox)
        #expect(box == [0, 0, 0, 28] + Array("elst".utf8) + [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 11, 0, 0, 0, 0, 0, 1, 0, 0])
        let parsed = try box.withUnsafeBytes { try AVIFEditList.parse($0, range: 8..<box.count) }
        #expect(parsed.repeats)
        #expect(parsed.segmentDurations == [11])
        #expect(try parsed.loopCount(trackDuration: timing.trackDuration) == .plays(4))
        let once = AVIFSequenceTiming(durations: [.milliseconds(10)], loopCount: .once)
        let onceBox = try #require(once.editListBox)
        #expect(
            try onceBox.withUnsafeBytes { try AVIFEditList.parse($0, range: 8..<onceBox.count) }.loopCount(trackDuration: once.trackDuration) == .once
        )
        let forever = AVIFSequenceTiming(durations: [.milliseconds(10)], loopCount: .infinite)
        #expect(forever.trackDuration == nil)
    }

    @Test func timescaleFallsBackWhenNoCommonOneFits() {
        let t = AVIFSequenceTiming(
            durations: [FrameDuration(numerator: 1, denominator: 70_001), FrameDuration(numerator: 1, denominator: 70_003)],
            loopCount: .infinite)
        #expect(t.timescale == 1_000_000)
        #expect(t.sampleDurations == [14, 14])
    }

    @Test func aomSpeedsThatFailHereAreAvoided() {
        #expect(AVIFEncoder(speed: 7).effectiveSpeed(lossless: false) == 6)
        #expect(AVIFEncoder(speed: 10).effectiveSpeed(lossless: false) == 10)
        #expect(AVIFEncoder(speed: 10).effectiveSpeed(lossless: true) == 6)
        #expect(AVIFEncoder(speed: 3).effectiveSpeed(lossless: true) == 3)
        #expect(AVIFEncoder(codec: "rav1e", speed: 7).effectiveSpeed(lossless: false) == 7)
    }

    @Test func badArguments() {
        #expect(throws: AnimatedImageError.self) { try AVIFEncoder(codec: "dav1d").makeWriter(canvasSize: Self.size, options: EncodingOptions()) }
        #expect(throws: AnimatedImageError.invalidArgument("AVIF speed is 0…10, got 11")) {
            try AVIFEncoder(speed: 11).makeWriter(canvasSize: Self.size, options: EncodingOptions())
        }
        #expect(throws: AnimatedImageError.invalidArgument("AVIF depth is 8, 10 or 12, got 16")) {
            try AVIFEncoder(depth: 16).makeWriter(canvasSize: Self.size, options: EncodingOptions())
        }
        #expect(throws: AnimatedImageError.invalidArgument("AVIFEncoder needs at least one frame")) {
            try AVIFEncoder().makeWriter(canvasSize: Self.size, options: EncodingOptions()).finish()
        }
    }

    /// SVT-AV1 writes lossy 4:2:0 of at least 64×64 with even sides only, and its 10-bit path crashes under
    /// libavif 0.11: those are refused with a reason before libavif is called (the check
    /// runs whether or not this libavif has svt).
    @Test func whatSVTCannotWriteIsRefusedUpFront() throws {
        let lossy = EncodingOptions(quality: 60)
        let canvas = PixelSize(width: 64, height: 64)
        #expect(
            throws: AnimatedImageError.invalidArgument(
                "the svt AV1 encoder needs an even canvas of at least 64×64, got 16×12: use aom or rav1e")
        ) {
            try AVIFEncoder(codec: "svt").checkCodecSupports(lossy, canvasSize: Self.size)
        }
        #expect(
            throws: AnimatedImageError.invalidArgument(
                "the svt AV1 encoder needs an even canvas of at least 64×64, got 66×65: use aom or rav1e")
        ) {
            try AVIFEncoder(codec: "svt").checkCodecSupports(lossy, canvasSize: PixelSize(width: 66, height: 65))
        }
        #expect(
            throws: AnimatedImageError.invalidArgument(
                "the svt AV1 encoder writes lossy 4:2:0 only, not 4:4:4: use chroma 4:2:0, or aom or rav1e")
        ) {
            try AVIFEncoder(codec: "svt", chroma: .yuv444).checkCodecSupports(lossy, canvasSize: canvas)
        }
        #expect(
            throws: AnimatedImageError.invalidArgument(
                "the svt AV1 encoder writes lossy 4:2:0 only, not lossless (4:4:4): use chroma 4:2:0, or aom or rav1e")
        ) {
            try AVIFEncoder(codec: "svt").checkCodecSupports(EncodingOptions(quality: nil), canvasSize: canvas)
        }
        #expect(
            throws: AnimatedImageError.invalidArgument(
                "the svt AV1 encoder is limited to 8 bits here (10-bit input crashes SVT-AV1 1.4 under libavif 0.11): use aom or rav1e for 10 bits")
        ) {
            try AVIFEncoder(codec: "svt", depth: 10).checkCodecSupports(lossy, canvasSize: canvas)
        }
        try AVIFEncoder(codec: "svt").checkCodecSupports(lossy, canvasSize: canvas)
        try AVIFEncoder(codec: "rav1e", depth: 10, chroma: .yuv444).checkCodecSupports(EncodingOptions(quality: nil), canvasSize: canvas)
    }

    /// What SVT-AV1 can write, it writes: an 8-bit 4:2:0 sequence with alpha that decodes
    /// with its frames, durations and plays.
    @Test(.enabled(if: AVIFEncoder.isAvailable(codec: "svt"), "libavif here has no svt encoder"))
    func svtWritesLossy420Sequences() throws {
        let size = PixelSize(width: 64, height: 64)
        let canvases = (0..<2).map { k in
            var b = PixelBuffer(width: size.width, height: size.height)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    b.setPixel(x: x, y: y, y < 16 ? [0, 0, 0, 0] : [UInt8(4 * x), UInt8(60 * k), 120, 255])
                }
            }
            return b
        }
        let durations: [FrameDuration] = [.milliseconds(40), .milliseconds(60)]
        let frames = zip(canvases, durations).map { EncodingFrame(pixels: $0, duration: $1) }
        let data = try AVIFEncoder(codec: "svt", speed: 10).encode(
            frames, canvasSize: size,
            options: EncodingOptions(loopCount: .plays(2), quality: 80))
        let source = try AVIFCoder().makeFrameSource(data: data, options: .default)
        #expect(source.info.frameCount == 2)
        #expect(source.info.frameDurations == durations)
        #expect(source.info.loopCount == .plays(2))
        // The transparent top rows stay transparent through the alpha plane.
        let second = try source.decodeFrame(at: 1)
        #expect(second.pixel(x: 10, y: 2)[3] == 0)
        #expect(second.pixel(x: 10, y: 40)[3] == 255)
    }

    /// rav1e writes stills of any size but sequences of at least 16×16: the second frame of
    /// a smaller canvas is refused with a reason, and a lone frame still writes.
    @Test(.enabled(if: AVIFEncoder.isAvailable(codec: "rav1e"), "libavif here has no rav1e encoder"))
    func rav1eSequencesNeed16x16() throws {
        let encoder = AVIFEncoder(codec: "rav1e", speed: 10)
        let frame = EncodingFrame(pixels: Self.frames(1)[0], duration: .milliseconds(10))
        let writer = try encoder.makeWriter(canvasSize: Self.size, options: EncodingOptions(quality: 50))
        try writer.add(frame)
        #expect(
            throws: AnimatedImageError.invalidArgument(
                "the rav1e AV1 encoder writes sequences of at least 16×16 (stills of any size), got 16×12: use aom")
        ) {
            try writer.add(frame)
        }
        let still = try encoder.encode([frame], canvasSize: Self.size, options: EncodingOptions(quality: 50))
        #expect(try AVIFCoder().makeFrameSource(data: still, options: .default).info.canvasSize == Self.size)
    }
}

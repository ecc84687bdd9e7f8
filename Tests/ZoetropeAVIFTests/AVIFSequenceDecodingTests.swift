import Foundation
import Testing
import Zoetrope

@testable import ZoetropeAVIF

/// Sequences made by libavif's encoder, decoded through `AVIFCoder`.
@Suite(.enabled(if: AVIFTestEncoder.isAvailable, "libavif cannot encode with aom here")) struct AVIFSequenceDecodingTests {
    let coder = AVIFCoder()

    /// 32×24, three frames with alpha: opaque colour on the left, half-transparent on the right.
    static let alphaFrames: [([UInt16], [UInt16], UInt64)] = [
        ([255, 0, 0, 255], [200, 100, 50, 128], 40),
        ([0, 255, 0, 255], [10, 20, 30, 0], 60),
        ([0, 0, 255, 255], [90, 180, 60, 64], 100),
    ]

    static func alphaSequence() throws -> Data {
        let e = AVIFTestEncoder(width: 32, height: 24)
        return try e.encode(alphaFrames.map { e.halves($0.0, $0.1, durationMs: $0.2) })
    }

    @Test func alphaSequenceDecodesExactly() throws {
        let data = try Self.alphaSequence()
        #expect(coder.sniff(data.prefix(coder.minimumSniffLength)) == .match(.avif, .animated))
        let source = try coder.makeFrameSource(data: data, options: .default)
        let info = source.info
        #expect(info.format == .avif)
        #expect(info.canvasSize == PixelSize(width: 32, height: 24))
        #expect(info.frameDurations == [.milliseconds(40), .milliseconds(60), .milliseconds(100)])
        // libavif 0.11's encoder writes no edit list: plays forever, as browsers do.
        #expect(info.loopCount == .infinite)
        #expect(info.storedLoopValue == nil)
        #expect(info.hasAlpha == true)
        for (i, frame) in Self.alphaFrames.enumerated() {
            let buffer = try source.decodeFrame(at: i)
            #expect(buffer.size == PixelSize(width: 32, height: 24))
            #expect(buffer.pixel(x: 3, y: 5) == frame.0.map(UInt8.init))
            #expect(buffer.pixel(x: 20, y: 17) == frame.1.map(UInt8.init))
        }
    }

    @Test func tenBitSequenceConvertsToEightBit() throws {
        // 10-bit 0, 341, 682, 1023 are exactly 8-bit 0, 85, 170, 255.
        let e = AVIFTestEncoder(width: 16, height: 8, depth: 10, withAlpha: false)
        let data = try e.encode([
            e.halves([1023, 341, 0, 1023], [682, 0, 1023, 1023], durationMs: 33),
            e.halves([0, 682, 341, 1023], [341, 1023, 682, 1023], durationMs: 67),
        ])
        let source = try coder.makeFrameSource(data: data, options: .default)
        #expect(source.info.hasAlpha == false)
        #expect(source.info.frameDurations == [FrameDuration(numerator: 33, denominator: 1000), FrameDuration(numerator: 67, denominator: 1000)])
        let f0 = try source.decodeFrame(at: 0), f1 = try source.decodeFrame(at: 1)
        #expect(f0.pixel(x: 0, y: 0) == [255, 85, 0, 255])
        #expect(f0.pixel(x: 15, y: 7) == [170, 0, 255, 255])
        #expect(f1.pixel(x: 2, y: 3) == [0, 170, 85, 255])
        #expect(f1.pixel(x: 9, y: 1) == [85, 255, 170, 255])
    }

    @Test func twelveBitSequenceConvertsToEightBit() throws {
        // 12-bit 0, 1365, 2730, 4095 are exactly 8-bit 0, 85, 170, 255.
        let e = AVIFTestEncoder(width: 8, height: 8, depth: 12, withAlpha: true)
        let data = try e.encode([
            e.halves([4095, 1365, 0, 4095], [2730, 0, 4095, 1365], durationMs: 125),
            e.halves([0, 0, 0, 0], [0, 0, 0, 0], durationMs: 125),
        ])
        let source = try coder.makeFrameSource(data: data, options: .default)
        #expect(source.info.frameDurations == [.milliseconds(125), .milliseconds(125)])
        let frame = try source.decodeFrame(at: 0)
        #expect(frame.pixel(x: 0, y: 7) == [255, 85, 0, 255])
        #expect(frame.pixel(x: 7, y: 0) == [170, 0, 255, 85])
    }

    @Test func tenBitAlphaConvertsToEightBit() throws {
        let e = AVIFTestEncoder(width: 8, height: 8, depth: 10, withAlpha: true)
        let data = try e.encode([
            e.halves([1023, 0, 0, 682], [0, 0, 1023, 341], durationMs: 50),
            e.halves([0, 1023, 0, 1023], [0, 0, 0, 0], durationMs: 50),
        ])
        let source = try coder.makeFrameSource(data: data, options: .default)
        #expect(source.info.hasAlpha == true)
        #expect(try source.decodeFrame(at: 0).pixel(x: 1, y: 1) == [255, 0, 0, 170])
        #expect(try source.decodeFrame(at: 0).pixel(x: 6, y: 1) == [0, 0, 255, 85])
        #expect(try source.decodeFrame(at: 1).pixel(x: 6, y: 6)[3] == 0)
    }

    @Test func premultipliedOutput() throws {
        let options = DecodingOptions(pixelFormat: .rgba8Premultiplied)
        let source = try coder.makeFrameSource(data: try Self.alphaSequence(), options: options)
        let frame = try source.decodeFrame(at: 0)
        #expect(frame.format == .rgba8Premultiplied)
        #expect(frame.pixel(x: 3, y: 5) == [255, 0, 0, 255])
        // 200·128/255 = 100.4, 100·128/255 = 50.2, 50·128/255 = 25.1
        #expect(frame.pixel(x: 20, y: 17) == [100, 50, 25, 128])
    }

    @Test func downsamplesToTargetSize() throws {
        let options = DecodingOptions(targetSize: PixelSize(width: 16, height: 16))
        let source = try coder.makeFrameSource(data: try Self.alphaSequence(), options: options)
        #expect(source.outputSize == PixelSize(width: 16, height: 12))
        let frame = try source.decodeFrame(at: 2)
        #expect(frame.size == PixelSize(width: 16, height: 12))
        #expect(frame.pixel(x: 2, y: 2) == [0, 0, 255, 255])
        #expect(frame.pixel(x: 12, y: 9) == [90, 180, 60, 64])
    }

    @Test func twoThreadsDecodeTheSameFramesAsOne() throws {
        // dav1d with two threads, in order and by random access, gives the one-thread frames.
        let e = AVIFTestEncoder(width: 256, height: 256)
        let colours: [[UInt16]] = [[255, 0, 0, 255], [0, 255, 0, 200], [0, 0, 255, 100], [9, 99, 199, 0]]
        let data = try e.encode(colours.indices.map { e.halves(colours[$0], colours[(colours.count - 1) - $0], durationMs: 20) })
        let one = try coder.makeFrameSource(data: data, options: DecodingOptions(threadCount: 1))
        let two = try coder.makeFrameSource(data: data, options: DecodingOptions(threadCount: 2))
        let frames = try (0..<4).map { try one.decodeFrame(at: $0) }
        for i in 0..<4 {
            #expect(frames[i].pixel(x: 10, y: 10) == colours[i].map(UInt8.init))
            #expect(try two.decodeFrame(at: i) == frames[i], "sequential frame \(i)")
        }
        for i in [1, 3, 2, 2, 0, 1] {
            #expect(try two.decodeFrame(at: i) == frames[i], "random access to frame \(i)")
        }
    }

    @Test func limitsAreCheckedBeforeDecoding() throws {
        let data = try Self.alphaSequence()
        #expect(throws: AnimatedImageError.limitExceeded(format: .avif, limit: .frameCount, requested: 3, allowed: 2)) {
            try coder.makeFrameSource(data: data, options: DecodingOptions(limits: Limits(maxFrameCount: 2)))
        }
        #expect(throws: AnimatedImageError.limitExceeded(format: .avif, limit: .width, requested: 32, allowed: 16)) {
            try coder.makeFrameSource(data: data, options: DecodingOptions(limits: Limits(maxWidth: 16)))
        }
        #expect(throws: AnimatedImageError.limitExceeded(format: .avif, limit: .canvasPixels, requested: 768, allowed: 700)) {
            try coder.makeFrameSource(data: data, options: DecodingOptions(limits: Limits(maxCanvasPixels: 700)))
        }
        #expect(throws: AnimatedImageError.limitExceeded(format: .avif, limit: .allocationBytes, requested: data.count, allowed: 100)) {
            try coder.makeFrameSource(data: data, options: DecodingOptions(limits: Limits(maxAllocationBytes: 100)))
        }
    }

    @Test func sequenceWinsOverStillItemWhateverTheMajorBrand() throws {
        // libavif's encoder also writes frame 0 as the primary item. With the major brand
        // changed to 'avif', libavif 0.11 on its own would pick the still; Zoetrope plays the sequence.
        var data = try Self.alphaSequence()
        let brand = data.firstRange(of: Data("avis".utf8))!
        data.replaceSubrange(brand, with: Data("avif".utf8))
        let source = try coder.makeFrameSource(data: data, options: .default)
        #expect(source.info.frameCount == 3)
        #expect(try source.decodeFrame(at: 1).pixel(x: 0, y: 0) == [0, 255, 0, 255])
    }

    @Test func stillImageIsOneFrame() throws {
        let e = AVIFTestEncoder(width: 8, height: 4)
        let data = try e.encode([e.halves([1, 2, 3, 255], [4, 5, 6, 7], durationMs: 0)], still: true)
        #expect(coder.sniff(data.prefix(coder.minimumSniffLength)) == .match(.avif, .still))
        let source = try coder.makeFrameSource(data: data, options: .default)
        #expect(source.info.frameDurations == [.zero])
        #expect(source.info.loopCount == .once)
        #expect(source.info.hasAlpha == true)
        let frame = try source.decodeFrame(at: 0)
        #expect(frame.pixel(x: 0, y: 0) == [1, 2, 3, 255])
        #expect(frame.pixel(x: 7, y: 3) == [4, 5, 6, 7])
    }

    @Test func cutFilesKeepTheirCompleteFrames() throws {
        let data = try Self.alphaSequence()
        let whole = try coder.makeFrameSource(data: data, options: .default)
        let frames = try (0..<3).map { try whole.decodeFrame(at: $0) }
        var counts = Set<Int>()
        for length in stride(from: data.count - 1, to: 0, by: -7) {
            do {
                let source = try coder.makeFrameSource(data: data.prefix(length), options: .default)
                let n = source.info.frameCount
                counts.insert(n)
                #expect(n < 3, "length \(length)")
                #expect(
                    source.info.truncation
                        == .truncated(
                            format: .avif, completeFrames: n,
                            reason: "the file ends (at \(length) bytes) inside the data of frame \(n) of 3"))
                for i in 0..<n { #expect(try source.decodeFrame(at: i) == frames[i], "length \(length), frame \(i)") }
                #expect(throws: source.info.truncation!) { try source.decodeFrame(at: n) }
            } catch let error as AnimatedImageError {
                // Cut before frame 0's data, or inside the boxes that describe the file.
                switch error {
                case .truncated(_, 0, _), .invalidData, .codecFailure, .insufficientData: break
                default: Issue.record("length \(length): \(error)")
                }
            }
        }
        // Some cut lands after frame 0's data and some after frame 1's.
        #expect(counts.isSuperset(of: [1, 2]))
    }

    @Test func corruptedContainersFailWithTypedErrors() throws {
        // Deterministic single-byte corruptions across the boxes before mdat: every outcome is
        // frames or an AnimatedImageError, never a crash or another error type.
        let data = try Self.alphaSequence()
        let mdat = data.firstRange(of: Data("mdat".utf8))!.lowerBound
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var failures = 0
        for _ in 0..<300 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var bad = data
            let at = Int(state >> 33) % mdat
            bad[at] ^= UInt8(truncatingIfNeeded: state >> 20) | 1
            do {
                let source = try coder.makeFrameSource(data: bad, options: .default)
                for i in 0..<source.info.frameCount { _ = try source.decodeFrame(at: i) }
            } catch is AnimatedImageError {
                failures += 1
            } catch {
                Issue.record("byte \(at): untyped error \(error)")
            }
        }
        // Enough of the corruptions hit something that matters for the test to mean anything.
        #expect(failures > 30)
    }

    @Test func libavifFailuresCarryItsMessage() throws {
        // A valid ftyp followed by garbage: libavif's own words come back.
        var data = Data(BoxBytes.ftyp("avif", ["avif", "mif1"]))
        data += Data(BoxBytes.box("meta", [0, 0, 0, 0]))
        #expect(
            throws: AnimatedImageError.codecFailure(
                format: .avif, library: "libavif",
                message: "avifDecoderParse: BMFF parsing failed (Box[meta] has no child boxes)")
        ) {
            try coder.makeFrameSource(data: data, options: .default)
        }
    }
}

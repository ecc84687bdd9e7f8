import Foundation
import Testing
import Zoetrope
import ZoetropeGIF
import ZoetropeTestSupport

/// Broken, hostile and oversized files end in typed errors, keep the frames that are
/// complete, and allocate nothing past the limits.
@Suite struct GIFBadInputTests {
    typealias F = GIFFixture

    /// Three 4×4 frames: red, green, blue.
    static func threeFrames() -> GIFWriter {
        var w = GIFWriter(width: 4, height: 4, globalColors: F.palette)
        w.loop(0)
        for colour: UInt8 in [1, 2, 3] {
            w.graphicControl(delay: 10)
            w.image(width: 4, height: 4, indices: [UInt8](repeating: colour, count: 16))
        }
        return w
    }

    /// A valid 1×1 image drawing index 1: code size 2, codes clear, 1, end at 3 bits.
    static let onePixelImage: [UInt8] = [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4C, 0x01, 0]

    @Test func truncatedFileKeepsCompleteFramesThenReportsTheTruncation() throws {
        let full = Self.threeFrames().file
        // Cut inside the third image's data.
        let cut = Array(full.prefix(full.count - 4))
        let source = try F.source(cut)
        #expect(source.info.frameCount == 2)
        guard case .truncated(.gif, let complete, _)? = source.info.truncation else {
            Issue.record("expected a truncation, got \(String(describing: source.info.truncation))")
            return
        }
        #expect(complete == 2)
        #expect(F.pixels(try source.decodeFrame(at: 0)).allSatisfy { $0 == F.opaqueRed })
        #expect(F.pixels(try source.decodeFrame(at: 1)).allSatisfy { $0 == F.opaqueGreen })
        #expect(F.error { _ = try source.decodeFrame(at: 2) } == source.info.truncation)
        // What the session holds: the 4×4 canvas, a saved region at most as large, one row.
        #expect(source.retainedByteCount <= 2 * 64 + 4 * 1024)
    }

    @Test func fileCutBeforeAnyFrameIsATypedError() {
        let full = Self.threeFrames().file
        #expect(
            F.error { _ = try F.source(Array(full.prefix(8))) }
                == .insufficientData(format: .gif, needed: 13, available: 8))
        guard case .truncated(.gif, 0, _)? = F.error({ _ = try F.source(Array(full.prefix(20))) }) else {
            Issue.record("a file cut in its colour table should be truncated with no frame")
            return
        }
        guard case .truncated(.gif, 0, _)? = F.error({ _ = try F.source(Array(full.prefix(60))) }) else {
            Issue.record("a file cut in its first image should be truncated with no frame")
            return
        }
    }

    @Test func undefinedFirstCodeAfterClearEndsTheAnimationBeforeItsFrame() throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: F.palette)
        w.image(width: 2, height: 1, indices: [1, 2])
        // Clear, then code 7: not yet defined (the next free code is 6).
        w.image(
            width: 2, height: 1, minimumCodeSize: 2,
            lzwData: GIFWriter.packCodes([(4, 3), (7, 3), (5, 3)]))
        let source = try F.source(w.file)
        #expect(source.info.frameCount == 1)
        guard case .invalidData(.gif, let reason)? = source.info.truncation else {
            Issue.record("corrupt LZW data must be reported, got \(String(describing: source.info.truncation))")
            return
        }
        #expect(reason.hasPrefix("frame 1 at offset"))
        #expect(F.error({ _ = try source.decodeFrame(at: 1) }) == source.info.truncation)
        #expect(F.pixels(try source.decodeFrame(at: 0)) == [F.opaqueRed, F.opaqueGreen])
    }

    @Test func colourIndexPastTheTableIsOpaqueBlackWithAWarning() throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: [F.red, F.green])
        w.image(width: 2, height: 1, indices: [1, 3])
        let source = try F.source(w.file)
        #expect(F.pixels(try source.decodeFrame(at: 0)) == [F.opaqueGreen, F.opaqueBlack])
        #expect(
            source.info.warnings == [
                "frame 0 uses colour index 3 outside its 2-entry colour table: indices without a colour are drawn opaque black, as Chromium does"
            ])
    }

    @Test func lzwDataEndingEarlyKeepsTheDecodedPixels() throws {
        // A 3×1 image whose data ends (end code) after two pixels: clear, 1, 2, end.
        var w = GIFWriter(width: 3, height: 1, globalColors: F.palette)
        w.image(width: 3, height: 1, indices: [3, 3, 3])
        w.image(
            width: 3, height: 1, minimumCodeSize: 2,
            lzwData: GIFWriter.packCodes([(4, 3), (1, 3), (2, 3), (5, 3)]))
        let frames = try F.frames(w.file)
        #expect(F.pixels(frames[1]) == [F.opaqueRed, F.opaqueGreen, F.opaqueBlue])
    }

    @Test func fullCanvasFrameWithEarlyEndShowsTheFrameUnderItInAnyAccessOrder() throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: F.palette)
        w.image(width: 2, height: 1, indices: [1, 1])
        // Covers the canvas, no transparency, but its data ends after one pixel.
        w.image(width: 2, height: 1, minimumCodeSize: 2, lzwData: GIFWriter.packCodes([(4, 3), (3, 3), (5, 3)]))
        w.image(width: 2, height: 1, indices: [2, 2])
        let expected = [[F.opaqueRed, F.opaqueRed], [F.opaqueBlue, F.opaqueRed], [F.opaqueGreen, F.opaqueGreen]]
        #expect(try F.frames(w.file).map(F.pixels) == expected)
        let source = try F.source(w.file)
        for i in [1, 2, 1, 0, 1] {
            #expect(F.pixels(try source.decodeFrame(at: i)) == expected[i], "frame \(i)")
        }
    }

    @Test func codeSizeAboveEightIsInvalid() throws {
        var first = GIFWriter(width: 1, height: 1, globalColors: F.palette)
        first.image(width: 1, height: 1, minimumCodeSize: 12, lzwData: [0x10, 0x01])
        guard case .invalidData(.gif, _)? = F.error({ _ = try F.source(first.file) }) else {
            Issue.record("expected invalidData")
            return
        }
        var later = GIFWriter(width: 1, height: 1, globalColors: F.palette)
        later.image(width: 1, height: 1, indices: [1])
        later.image(width: 1, height: 1, minimumCodeSize: 12, lzwData: [0x10, 0x01])
        let source = try F.source(later.file)
        #expect(source.info.frameCount == 1)
        guard case .invalidData(.gif, _)? = source.info.truncation else {
            Issue.record("expected the break to be recorded, got \(String(describing: source.info.truncation))")
            return
        }
    }

    @Test func unknownBlockEndsTheAnimationAfterItsFrames() throws {
        var w = GIFWriter(width: 1, height: 1, globalColors: F.palette)
        w.image(width: 1, height: 1, indices: [1])
        w.raw([0x99, 1, 2, 3])
        let source = try F.source(w.file)
        #expect(source.info.frameCount == 1)
        guard case .invalidData(.gif, _)? = source.info.truncation else {
            Issue.record("expected invalidData in truncation")
            return
        }
    }

    @Test func hugeLogicalScreenIsRefusedBeforeAllocating() {
        var w = GIFWriter(width: 65535, height: 65535, globalColors: F.palette)
        w.raw(Self.onePixelImage)
        let clock = ContinuousClock()
        let start = clock.now
        let error = F.error { _ = try F.source(w.file) }
        print("65535×65535 screen refused in \(clock.now - start)")
        #expect(
            error
                == .limitExceeded(
                    format: .gif, limit: .canvasPixels, requested: 65535 * 65535,
                    allowed: Limits.default.maxCanvasPixels))
    }

    @Test func firstFrameGrowingTheCanvasPastTheLimitsIsRefused() {
        var w = GIFWriter(width: 1, height: 1, globalColors: F.palette)
        w.imageDescriptor(x: 65000, y: 65000, width: 535, height: 535)
        w.raw([2, 0])
        let error = F.error { _ = try F.source(w.file) }
        #expect(
            error
                == .limitExceeded(
                    format: .gif, limit: .canvasPixels, requested: 65535 * 65535,
                    allowed: Limits.default.maxCanvasPixels))
    }

    static func manyFrames(_ count: Int) -> [UInt8] {
        var bytes = GIFWriter(width: 1, height: 1, globalColors: [F.red, F.green]).bytes
        bytes.reserveCapacity(bytes.count + count * onePixelImage.count + 1)
        for _ in 0..<count { bytes += onePixelImage }
        bytes.append(0x3B)
        return bytes
    }

    @Test func hundredThousandFramesPassTheFrameLimitWithoutDecoding() {
        let file = Self.manyFrames(100_000)
        let clock = ContinuousClock()
        let start = clock.now
        let error = F.error { _ = try F.source(file) }
        print("100,000-frame file refused in \(clock.now - start)")
        #expect(error == .limitExceeded(format: .gif, limit: .frameCount, requested: 10_001, allowed: 10_000))
    }

    @Test func hundredThousandFramesWithinRaisedLimitsSeekInOneFrame() throws {
        let source = try F.source(Self.manyFrames(100_000), options: DecodingOptions(limits: Limits(maxFrameCount: 100_000)))
        #expect(source.info.frameCount == 100_000)
        // Every frame covers the canvas opaquely, so the last one decodes on its own.
        #expect(F.pixels(try source.decodeFrame(at: 99_999)) == [F.opaqueGreen])
    }

    @Test func allocationLimitIsCheckedBeforeTheCanvasExists() {
        var w = GIFWriter(width: 1000, height: 1000, globalColors: F.palette)
        w.raw(Self.onePixelImage)
        let error = F.error {
            _ = try F.source(w.file, options: DecodingOptions(limits: Limits(maxAllocationBytes: 1_000_000)))
        }
        guard case .limitExceeded(.gif, .allocationBytes, let requested, 1_000_000)? = error else {
            Issue.record("expected allocationBytes, got \(String(describing: error))")
            return
        }
        #expect(requested >= 8_000_000)
    }

    @Test func mutatedFilesNeverCrashAndOnlyThrowTypedErrors() {
        var w = GIFWriter(width: 9, height: 7, globalColors: F.palette)
        w.loop(2)
        w.graphicControl(delay: 3, disposal: 3, transparentIndex: 0)
        w.image(x: 1, y: 1, width: 5, height: 5, indices: (0..<25).map { UInt8($0 % 4) }, interlaced: true)
        w.graphicControl(disposal: 2)
        w.image(
            x: 3, y: 0, width: 6, height: 7, indices: (0..<42).map { UInt8($0 % 3) },
            localColors: [F.white, F.blue, F.green, F.red])
        w.image(width: 9, height: 7, indices: (0..<63).map { UInt8(($0 * 7) % 4) })
        let original = w.file
        var generator = SplitMix64(seed: 42)
        // Small limits: a mutated size asking for a big canvas is refused, not decoded.
        let options = DecodingOptions(limits: Limits(maxCanvasPixels: 64 * 64))
        var decodedFrames = 0, typedErrors = 0, otherErrors = 0
        // GIF_FUZZ_ROUNDS raises the count for a longer local run (for example under ASan).
        let rounds = ProcessInfo.processInfo.environment["GIF_FUZZ_ROUNDS"].flatMap(Int.init) ?? 400
        for round in 0..<rounds {
            var bytes = original
            let edits = 1 + Int(generator.next() % 4)
            for _ in 0..<edits {
                let at = 6 + Int(generator.next() % UInt64(bytes.count - 6))
                bytes[at] = UInt8(truncatingIfNeeded: generator.next())
            }
            if round % 5 == 0 { bytes = Array(bytes.prefix(13 + Int(generator.next() % UInt64(bytes.count - 13)))) }
            do {
                let source = try F.source(bytes, options: options)
                for i in 0..<source.info.frameCount {
                    do {
                        _ = try source.decodeFrame(at: i)
                        decodedFrames += 1
                    } catch is AnimatedImageError {
                        typedErrors += 1
                    }
                }
            } catch is AnimatedImageError {
                typedErrors += 1
            } catch {
                otherErrors += 1
            }
        }
        #expect(otherErrors == 0)
        #expect(decodedFrames > 0 && typedErrors > 0)
    }
}

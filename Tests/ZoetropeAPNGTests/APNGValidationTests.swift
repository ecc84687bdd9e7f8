import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// Each animation-chunk rule the walker checks: breaking it makes the file decode as its
/// still image (format png, one frame, the IDAT pixels), as browsers do.
@Suite struct APNGValidationTests {
    /// A valid 2×2 APNG: a blue default image outside the animation, then a red and a
    /// green frame (sequence numbers 0–3).
    static func base() -> APNGWriter {
        APNGWriter.animation(
            width: 2, height: 2,
            frames: [
                .solid(width: 2, height: 2, Fixture.red), .solid(width: 2, height: 2, Fixture.green),
            ], defaultImage: Fixture.fill(2, 2, Fixture.blue))
    }

    /// Index of the `n`th chunk of `type` in the base file.
    static func position(_ w: APNGWriter, _ type: String, _ n: Int = 0) -> Int {
        w.chunks.indices.filter { w.chunks[$0].type == type }[n]
    }

    static func zlib(_ rgba: [UInt8]) -> [UInt8] {
        APNGWriter.zlibStored(APNGWriter.scanlines(rgba: rgba, width: 2, height: 2))
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let reason: String
        let edit: @Sendable (inout APNGWriter) -> Void
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "acTL CRC", reason: "acTL CRC") { w in w.chunks[position(w, "acTL")].crcOverride = 1 },
        Case(name: "fcTL CRC", reason: "fcTL CRC") { w in w.chunks[position(w, "fcTL", 1)].crcOverride = 1 },
        Case(name: "fdAT CRC", reason: "fdAT CRC") { w in w.chunks[position(w, "fdAT")].crcOverride = 1 },
        Case(name: "acTL length", reason: "acTL is 9 bytes") { w in w.chunks[position(w, "acTL")].payload.append(0) },
        Case(name: "num_frames 0", reason: "num_frames 0") { w in
            w.chunks[position(w, "acTL")].payload = APNGWriter.actl(frameCount: 0, plays: 0)
        },
        Case(name: "num_frames 2^31", reason: "num_frames 2147483648") { w in
            w.chunks[position(w, "acTL")].payload = APNGWriter.actl(frameCount: 0x8000_0000, plays: 0)
        },
        Case(name: "second acTL", reason: "more than one acTL") { w in
            w.chunks.insert(w.chunks[position(w, "acTL")], at: position(w, "acTL"))
        },
        Case(name: "num_frames low", reason: "acTL says 1 frames, the file has 2") { w in
            w.chunks[position(w, "acTL")].payload = APNGWriter.actl(frameCount: 1, plays: 0)
        },
        Case(name: "num_frames high", reason: "acTL says 3 frames, the file has 2") { w in
            w.chunks[position(w, "acTL")].payload = APNGWriter.actl(frameCount: 3, plays: 0)
        },
        Case(name: "fcTL length", reason: "fcTL is 25 bytes") { w in w.chunks[position(w, "fcTL")].payload.removeLast() },
        Case(name: "sequence gap", reason: "fdAT sequence number 2, expected 1") { w in
            w.chunks[position(w, "fdAT")].payload[3] = 2
        },
        Case(name: "sequence not from 0", reason: "fcTL sequence number 1, expected 0") { w in
            w.chunks[position(w, "fcTL")].payload[3] = 1
        },
        Case(name: "sequence repeated", reason: "fcTL sequence number 1, expected 2") { w in
            w.chunks[position(w, "fcTL", 1)].payload[3] = 1
        },
        Case(name: "sequence reordered", reason: "fdAT sequence number 3, expected 1") { w in
            w.chunks[position(w, "fdAT")].payload[3] = 3
            w.chunks[position(w, "fdAT", 1)].payload[3] = 1
        },
        Case(name: "frame width 0", reason: "frame size 0×2 is empty") { w in
            w.chunks[position(w, "fcTL", 1)].payload = APNGWriter.fctl(sequence: 2, width: 0, height: 2)
        },
        Case(name: "frame height 0", reason: "frame size 2×0 is empty") { w in
            w.chunks[position(w, "fcTL", 1)].payload = APNGWriter.fctl(sequence: 2, width: 2, height: 0)
        },
        Case(name: "frame outside the canvas", reason: "reaches outside") { w in
            w.chunks[position(w, "fcTL", 1)].payload = APNGWriter.fctl(sequence: 2, width: 2, height: 2, x: 1)
        },
        Case(name: "frame offset overflows 32 bits", reason: "reaches outside") { w in
            w.chunks[position(w, "fcTL", 1)].payload = APNGWriter.fctl(sequence: 2, width: 2, height: 2, y: 0xFFFF_FFFF)
        },
        Case(name: "dispose_op 3", reason: "dispose_op 3") { w in
            w.chunks[position(w, "fcTL", 1)].payload = APNGWriter.fctl(sequence: 2, width: 2, height: 2, disposeOp: 3)
        },
        Case(name: "blend_op 2", reason: "blend_op 2") { w in
            w.chunks[position(w, "fcTL", 1)].payload = APNGWriter.fctl(sequence: 2, width: 2, height: 2, blendOp: 2)
        },
        Case(name: "two fcTL without data", reason: "two fcTL chunks without image data") { w in
            w.chunks.remove(at: position(w, "fdAT"))
            w.chunks[position(w, "fcTL", 1)].payload[3] = 1
            w.chunks[position(w, "fdAT")].payload[3] = 2
        },
        Case(name: "last fcTL without data", reason: "the last fcTL has no image data") { w in
            w.chunks.remove(at: position(w, "fdAT", 1))
        },
        Case(name: "fdAT shorter than 4", reason: "fdAT is 3 bytes") { w in
            w.chunks[position(w, "fdAT")].payload = [0, 0, 1]
        },
        Case(name: "fdAT without fcTL", reason: "fdAT without a preceding fcTL") { w in
            w.chunks.remove(at: position(w, "fcTL"))
            w.chunks[position(w, "fdAT")].payload[3] = 0
            w.chunks[position(w, "fcTL")].payload[3] = 1
            w.chunks[position(w, "fdAT", 1)].payload[3] = 2
        },
        Case(name: "fdAT before IDAT", reason: "fdAT before IDAT") { w in
            let idat = w.chunks.remove(at: position(w, "IDAT"))
            w.chunks.insert(idat, at: position(w, "fcTL", 1))
        },
        Case(name: "fcTL before IDAT smaller than the canvas", reason: "not the whole 2×2 canvas") { w in
            // Frame 0 is the IDAT image but its fcTL says 1×1.
            w.chunks.insert(
                APNGWriter.Chunk(type: "fcTL", payload: APNGWriter.fctl(sequence: 0, width: 1, height: 1)),
                at: position(w, "IDAT"))
            for (n, i) in w.chunks.indices.filter({ ["fcTL", "fdAT"].contains(w.chunks[$0].type) }).enumerated() where n > 0 {
                w.chunks[i].payload[3] = UInt8(n)
            }
            w.chunks[position(w, "acTL")].payload = APNGWriter.actl(frameCount: 3, plays: 0)
        },
        Case(name: "fdAT continuing the IDAT frame", reason: "fdAT continues frame 0") { w in
            // fcTL 0, IDAT (frame 0), then fdAT 1 with no fcTL of its own.
            w = APNGWriter()
            w.append("IHDR", APNGWriter.ihdr(width: 2, height: 2))
            w.append("acTL", APNGWriter.actl(frameCount: 1, plays: 0))
            w.append("fcTL", APNGWriter.fctl(sequence: 0, width: 2, height: 2))
            w.append("IDAT", zlib(Fixture.fill(2, 2, Fixture.blue)))
            w.append("fdAT", APNGWriter.fdat(sequence: 1, zlib(Fixture.fill(2, 2, Fixture.red))))
            w.append("IEND", [])
        },
    ]

    @Test(arguments: cases)
    func brokenAnimationFallsBackToTheStillImage(_ c: Case) throws {
        var w = APNGValidationTests.base()
        c.edit(&w)
        let source = try Fixture.source(w.data)
        #expect(source.info.format == .png)
        #expect(source.info.frameCount == 1)
        #expect(source.info.canvasSize == PixelSize(width: 2, height: 2))
        let reason = try #require(source.fallbackReason)
        #expect(reason.contains(c.reason), "\(reason)")
        #expect(try source.decodeFrame(at: 0).bytes == Fixture.fill(2, 2, Fixture.blue))
    }

    @Test func theBaseFileIsAValidAnimation() throws {
        let source = try Fixture.source(APNGValidationTests.base().data)
        #expect(source.info.format == .apng)
        #expect(source.fallbackReason == nil)
        #expect(try source.decodeFrame(at: 1).bytes == Fixture.fill(2, 2, Fixture.green))
    }

    @Test func acTLAfterIDATIsAPlainPNG() throws {
        var w = APNGValidationTests.base()
        let actl = w.chunks.remove(at: APNGValidationTests.position(w, "acTL"))
        w.chunks.insert(actl, at: APNGValidationTests.position(w, "IDAT") + 1)
        let source = try Fixture.source(w.data)
        #expect(source.info.format == .png)
        #expect(source.info.frameCount == 1)
        #expect(source.fallbackReason == nil)
        #expect(try source.decodeFrame(at: 0).bytes == Fixture.fill(2, 2, Fixture.blue))
    }

    @Test func fcTLBeforeAcTLIsValid() throws {
        var w = APNGWriter.animation(
            width: 2, height: 2,
            frames: [
                .solid(width: 2, height: 2, Fixture.red), .solid(width: 2, height: 2, Fixture.green),
            ])
        w.chunks.swapAt(1, 2)  // IHDR fcTL acTL IDAT …
        #expect(w.chunks[1].type == "fcTL")
        let source = try Fixture.source(w.data)
        #expect(source.info.format == .apng)
        #expect(source.info.frameCount == 2)
    }

    // MARK: - Errors that leave nothing to show

    @Test func notAPNGIsInvalidData() throws {
        #expect(throws: AnimatedImageError.invalidData(format: .png, reason: "missing the PNG signature")) {
            try APNGCoder().makeFrameSource(data: Data("GIF89a......".utf8), options: .default)
        }
    }

    @Test func badIHDRCRCIsInvalidData() throws {
        var w = APNGValidationTests.base()
        w.chunks[0].crcOverride = 0
        #expect(throws: AnimatedImageError.invalidData(format: .png, reason: "IHDR CRC mismatch")) {
            try Fixture.source(w.data)
        }
    }

    @Test func badIDATCRCInTheImageShownFirstFailsAtOpen() throws {
        // Falls back to the still image, which is damaged: nothing to show, so the file
        // fails to open (as `info` and `frames` both say), not at its first decode.
        var w = APNGValidationTests.base()
        w.chunks[APNGValidationTests.position(w, "IDAT")].crcOverride = 0
        w.chunks[APNGValidationTests.position(w, "acTL")].payload = APNGWriter.actl(frameCount: 3, plays: 0)
        #expect(throws: AnimatedImageError.invalidData(format: .png, reason: "IDAT CRC mismatch")) {
            try Fixture.source(w.data)
        }
        // The IDAT image as frame 0 of a valid animation.
        var first = APNGWriter.animation(
            width: 2, height: 2, frames: [.solid(width: 2, height: 2, Fixture.red), .solid(width: 2, height: 2, Fixture.green)])
        first.chunks[APNGValidationTests.position(first, "IDAT")].crcOverride = 0
        #expect(throws: AnimatedImageError.invalidData(format: .apng, reason: "IDAT CRC mismatch")) {
            try Fixture.source(first.data)
        }
    }

    @Test func badFdATCRCAfterGoodFramesEndsTheAnimationThere() throws {
        var w = APNGValidationTests.base()
        w.chunks[APNGValidationTests.position(w, "fdAT", 1)].crcOverride = 0
        let source = try Fixture.source(w.data)
        #expect(source.info.format == .apng)
        #expect(try source.decodeFrame(at: 0).bytes == Fixture.fill(2, 2, Fixture.red))
        #expect(
            throws: AnimatedImageError.truncated(
                format: .apng, completeFrames: 1,
                reason: "frame 1 does not decode: apng: invalid data: fdAT CRC mismatch")
        ) {
            try source.decodeFrame(at: 1)
        }
    }

    @Test func invalidBitDepthIsInvalidData() throws {
        var w = APNGValidationTests.base()
        w.chunks[0].payload = APNGWriter.ihdr(width: 2, height: 2, bitDepth: 4, colorType: 6)
        #expect(throws: AnimatedImageError.invalidData(format: .png, reason: "IHDR bit depth 4 is not allowed for colour type 6")) {
            try Fixture.source(w.data)
        }
    }

    @Test func noImageDataIsInvalidData() throws {
        var w = APNGWriter()
        w.append("IHDR", APNGWriter.ihdr(width: 2, height: 2))
        w.append("acTL", APNGWriter.actl(frameCount: 0, plays: 0))
        w.append("IEND", [])
        #expect(throws: AnimatedImageError.invalidData(format: .png, reason: "no IDAT chunk: the file holds no image")) {
            try Fixture.source(w.data)
        }
    }

    @Test func firstChunkMustBeIHDR() throws {
        var w = APNGValidationTests.base()
        w.chunks.swapAt(0, 1)
        #expect(throws: AnimatedImageError.invalidData(format: .png, reason: "the first chunk is acTL, not IHDR")) {
            try Fixture.source(w.data)
        }
    }

    @Test func cutInsideTheStillImageIsTruncatedWithNoFrames() throws {
        let data = APNGWriter.stillPNG(width: 2, height: 2, rgba: Fixture.fill(2, 2, Fixture.red))
        let cut = data.prefix(45)  // inside the IDAT chunk
        #expect(throws: AnimatedImageError.truncated(format: .png, completeFrames: 0, reason: "the IDAT chunk is cut short")) {
            try Fixture.source(cut)
        }
    }

    // MARK: - Truncation and broken frames

    @Test func truncatedAnimationKeepsTheCompleteFrames() throws {
        let data = APNGValidationTests.base().data
        let cut = data.prefix(data.count - 20)  // inside the last fdAT
        let source = try Fixture.source(cut)
        #expect(source.info.format == .apng)
        #expect(source.info.frameCount == 1)
        let truncation = AnimatedImageError.truncated(format: .apng, completeFrames: 1, reason: "the fdAT chunk is cut short")
        #expect(source.info.truncation == truncation)
        #expect(try source.decodeFrame(at: 0).bytes == Fixture.fill(2, 2, Fixture.red))
        #expect(throws: truncation) { try source.decodeFrame(at: 1) }
    }

    @Test func missingIENDKeepsEveryWholeFrame() throws {
        let data = APNGValidationTests.base().data
        let source = try Fixture.source(data.prefix(data.count - 12))
        #expect(source.info.frameCount == 2)
        #expect(source.info.truncation == .truncated(format: .apng, completeFrames: 2, reason: "the file ends before IEND"))
        #expect(try source.decodeFrame(at: 1).bytes == Fixture.fill(2, 2, Fixture.green))
    }

    @Test func brokenFrameAfterGoodOnesEndsTheAnimationThere() throws {
        var w = APNGWriter.animation(
            width: 2, height: 2,
            frames: [
                .solid(width: 2, height: 2, Fixture.red), .solid(width: 2, height: 2, Fixture.green),
                .solid(width: 2, height: 2, Fixture.blue),
            ])
        // Frame 2's deflate block gets the reserved block type 3.
        let i = APNGValidationTests.position(w, "fdAT", 1)
        w.chunks[i].payload[6] = 0x07
        let source = try Fixture.source(w.data)
        #expect(source.info.frameCount == 3)
        #expect(try source.decodeFrame(at: 1).bytes == Fixture.fill(2, 2, Fixture.green))
        #expect {
            try source.decodeFrame(at: 2)
        } throws: { error in
            guard case .truncated(.apng, 2, let reason)? = error as? AnimatedImageError else { return false }
            return reason.contains("libpng")
        }
        // The source stays usable for the good frames.
        #expect(try source.decodeFrame(at: 0).bytes == Fixture.fill(2, 2, Fixture.red))
    }

    @Test func brokenFirstFrameIsALibpngFailure() throws {
        var w = APNGWriter.animation(width: 2, height: 2, frames: [.solid(width: 2, height: 2, Fixture.red)])
        w.chunks[APNGValidationTests.position(w, "IDAT")].payload[2] = 0x07
        let source = try Fixture.source(w.data)
        #expect {
            try source.decodeFrame(at: 0)
        } throws: { error in
            guard case .codecFailure(.apng, "libpng", _)? = error as? AnimatedImageError else { return false }
            return true
        }
    }

    // MARK: - Limits

    @Test func canvasWiderThanTheLimitIsRefused() throws {
        let data = APNGWriter.stillPNG(width: 4, height: 1, rgba: Fixture.fill(4, 1, Fixture.red))
        let options = DecodingOptions(limits: Limits(maxWidth: 3))
        #expect(throws: AnimatedImageError.limitExceeded(format: .png, limit: .width, requested: 4, allowed: 3)) {
            try Fixture.source(data, options: options)
        }
    }

    @Test func hugeCanvasIsRefusedBeforeAllocating() throws {
        var w = APNGWriter()
        w.append("IHDR", APNGWriter.ihdr(width: 100_000, height: 100_000))
        w.append("IDAT", [])
        w.append("IEND", [])
        #expect(throws: AnimatedImageError.limitExceeded(format: .png, limit: .width, requested: 100_000, allowed: Limits.default.maxWidth)) {
            try Fixture.source(w.data)
        }
    }

    @Test func moreFramesThanTheLimitIsRefused() throws {
        let data = APNGWriter.animation(width: 1, height: 1, frames: Array(repeating: .solid(width: 1, height: 1, Fixture.red), count: 3)).data
        let options = DecodingOptions(limits: Limits(maxFrameCount: 2))
        #expect(throws: AnimatedImageError.limitExceeded(format: .apng, limit: .frameCount, requested: 3, allowed: 2)) {
            try Fixture.source(data, options: options)
        }
    }

    @Test func sessionMemoryOverTheLimitIsRefused() throws {
        let data = APNGWriter.stillPNG(width: 8, height: 8, rgba: Fixture.fill(8, 8, Fixture.red))
        let options = DecodingOptions(limits: Limits(maxAllocationBytes: 200))
        #expect {
            try Fixture.source(data, options: options)
        } throws: { error in
            guard case .limitExceeded(.png, .allocationBytes, _, 200)? = error as? AnimatedImageError else { return false }
            return true
        }
    }
}

extension APNGValidationTests {
    @Test func millionsOfEmptyDataChunksCountAgainstTheAllocationLimit() throws {
        var w = APNGWriter.animation(
            width: 1, height: 1, frames: [.solid(width: 1, height: 1, Fixture.red)],
            defaultImage: [0, 0, 255, 255])
        let at = APNGValidationTests.position(w, "fdAT")
        // 400 empty fdAT chunks before the real one (sequence numbers 1…400, then 401).
        let empties = (1...400).map { APNGWriter.Chunk(type: "fdAT", payload: APNGWriter.fdat(sequence: UInt32($0), [])) }
        w.chunks[at].payload[3] = UInt8(401 & 0xFF)
        w.chunks[at].payload[2] = UInt8(401 >> 8)
        w.chunks.insert(contentsOf: empties, at: at)
        let limit = 300 * APNGChunkWalker.bytesPerDataChunk
        #expect(
            throws: AnimatedImageError.limitExceeded(
                format: .apng, limit: .allocationBytes,
                requested: 301 * APNGChunkWalker.bytesPerDataChunk, allowed: limit)
        ) {
            try Fixture.source(w.data, options: DecodingOptions(limits: Limits(maxAllocationBytes: limit)))
        }
        // Within the default limits the same file decodes.
        #expect(try Fixture.source(w.data).decodeFrame(at: 0).bytes == Fixture.red)
    }
}

extension APNGValidationTests {
    @Test func theCoderSaysWhyAnAnimationWasIgnored() throws {
        var w = APNGValidationTests.base()
        #expect(try APNGCoder().animationProblem(in: w.data) == nil)
        w.chunks[APNGValidationTests.position(w, "fdAT", 1)].payload[3] = 4
        #expect(try APNGCoder().animationProblem(in: w.data) == "fdAT sequence number 4, expected 3")
        #expect(try APNGCoder().animationProblem(in: APNGWriter.stillPNG(width: 1, height: 1, rgba: Fixture.red)) == nil)
    }
}

extension APNGValidationTests {
    /// The canvas alone fits, the session does not: libpng's buffers, the largest frame
    /// stream and the fixed 64 KiB reserve push it past the limit, on the whole-file path
    /// and in an incremental session alike (one `APNGSessionBudget`).
    @Test func theWholeSessionCountsAgainstTheAllocationLimitNotOnlyTheCanvas() throws {
        let frames = Array(repeating: APNGWriter.Frame.solid(width: 16, height: 16, Fixture.red), count: 2)
        let data = APNGWriter.animation(width: 16, height: 16, frames: frames).data
        let options = DecodingOptions(limits: Limits(maxAllocationBytes: 60_000))
        var wholeFile: AnimatedImageError?
        do { _ = try Fixture.source(data, options: options) } catch let e as AnimatedImageError { wholeFile = e }
        guard case .limitExceeded(.apng, .allocationBytes, let requested, 60_000)? = wholeFile else {
            Issue.record("expected the allocation limit, got \(String(describing: wholeFile))")
            return
        }
        #expect(requested > 65_536 + 16 * 16 * 4)
        let session = APNGCoder().makeIncrementalSource(options: options)
        #expect(throws: wholeFile!) {
            _ = try session.append(data)
            _ = try session.finish()
        }
        // With room for it, the same file opens.
        #expect(try Fixture.source(data, options: DecodingOptions(limits: Limits(maxAllocationBytes: 100_000))).info.frameCount == 2)
    }
}

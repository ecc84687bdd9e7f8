import Foundation
import Testing
import Zoetrope
@testable import ZoetropeGIF
import ZoetropeTestSupport

/// A big GIF opens in two steps: the block walk and frame 0's scan, then the other
/// images' scans when the frame count is first needed. Frame 0 decodes in between, and
/// whatever the file, the info and the frames are the one-step index's.
@Suite struct GIFTwoStepIndexTests {
    typealias Fixture = GIFParallelScanTests

    /// Whether `source` still waits for the rest of its scans.
    static func isWalked(_ source: any FrameSource) -> Bool {
        (source as? GIFFrameSource)?.isWaitingForScans ?? false
    }

    /// The whole-file result with every frame's pixels, through the one-step index.
    static func oneStep(_ bytes: [UInt8]) throws -> (info: AnimationInfo, frames: [PixelBuffer]) {
        let index = try Fixture.sequential(bytes)
        let info = GIFIndexing.Complete(index).info
        let source = try GIFCoder().makeFrameSource(data: Data(bytes), options: .default)
        return (info, try (0..<info.frameCount).map { try source.decodeFrame(at: $0) })
    }

    @Test func frameZeroDecodesBeforeTheRestIsScanned() throws {
        let bytes = Fixture.file()
        let source = try GIFCoder().makeFrameSource(data: Data(bytes), options: .default)
        #expect(Self.isWalked(source))
        let first = try source.decodeFrame(at: 0)
        #expect(Self.isWalked(source))
        let expected = try Self.oneStep(bytes)
        #expect(first == expected.frames[0])
        // The info completes the index: the one-step info, and the same frames.
        #expect(source.info == expected.info)
        #expect(!Self.isWalked(source))
        #expect(try (0..<12).map { try source.decodeFrame(at: $0) } == expected.frames)
    }

    @Test func aBadCodeAfterFrameZeroEndsTheAnimationAsTheOneStepIndexDoes() throws {
        let bytes = Fixture.file(badCodeInFrame: 5)
        let source = try GIFCoder().makeFrameSource(data: Data(bytes), options: .default)
        #expect(Self.isWalked(source))
        let expected = try Self.oneStep(bytes)
        #expect(expected.info.frameCount == 5)
        #expect(try source.decodeFrame(at: 0) == expected.frames[0])
        // Frame 7 exists in the walk but not in the file as decoded: the truncation, as in one step.
        let truncation = try #require(expected.info.truncation)
        #expect(throws: truncation) { try source.decodeFrame(at: 7) }
        #expect(source.info == expected.info)
    }

    @Test func aBadCodeInFrameZeroOrACutFileOpensInOneStep() throws {
        for bytes in [Fixture.file(badCodeInFrame: 0), Fixture.file(trailer: false)] {
            let outcome = Result { try GIFCoder().makeFrameSource(data: Data(bytes), options: .default) }
            let expected = Result { try Self.oneStep(bytes) }
            switch (outcome, expected) {
            case (.success(let source), .success(let whole)):
                #expect(!Self.isWalked(source))
                #expect(source.info == whole.info)
            case (.failure(let a), .failure(let b)):
                #expect("\(a)" == "\(b)")
            default:
                Issue.record("two-step and one-step disagree: \(outcome) vs \(expected)")
            }
        }
    }

    @Test func aLimitTheWalkPassesIsDecidedInOneStep() throws {
        // Twelve frames: a limit of 11 fails the walk, so the file opens in one step and
        // fails there exactly as before.
        var options = DecodingOptions.default
        options.limits.maxFrameCount = 11
        let bytes = Fixture.file()
        #expect(throws: AnimatedImageError.self) { try GIFCoder().makeFrameSource(data: Data(bytes), options: options) }
        // With a bad code at frame 5 the one-step walk stops before the limit: 5 frames.
        let bad = try GIFCoder().makeFrameSource(data: Data(Fixture.file(badCodeInFrame: 5)), options: options)
        #expect(bad.info.frameCount == 5)
    }

    @Test func smallFilesOpenInOneStep() throws {
        var w = GIFWriter(width: 2, height: 2, globalColors: [(0, 0, 0), (255, 255, 255)])
        w.image(width: 2, height: 2, indices: [0, 1, 1, 0])
        let source = try GIFCoder().makeFrameSource(data: Data(w.file), options: .default)
        #expect(!Self.isWalked(source))
    }
}

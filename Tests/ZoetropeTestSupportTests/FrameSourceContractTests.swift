import Foundation
import Testing
import Zoetrope
import ZoetropeGIF
import ZoetropeTestSupport

/// The contract checker every codec runs: silent on a source that keeps the promises, and
/// naming the promise a broken source breaks.
@Suite struct FrameSourceContractTests {
    /// Three frames of a 4×2 GIF, each a different colour over the last.
    static let gif: Data = {
        var w = GIFWriter(width: 4, height: 2, globalColors: [(255, 0, 0), (0, 255, 0), (0, 0, 255), (0, 0, 0)])
        for colour in 0..<3 {
            w.graphicControl(delay: 5)
            w.image(width: 4, height: 2, indices: [UInt8](repeating: UInt8(colour), count: 8))
        }
        return Data(w.file)
    }()

    static func contract(_ fault: MisbehavingSource.Fault) -> FrameSourceContract {
        FrameSourceContract { MisbehavingSource(try GIFCoder().makeFrameSource(data: gif, options: .default), fault: fault) }
    }

    @Test func aSourceThatKeepsThePromisesHasNoViolations() {
        #expect(Self.contract(.none).violations() == [])
        #expect(FrameSourceContract(coder: GIFCoder(), data: Self.gif).violations() == [])
    }

    @Test func aFramePastTheEndThatDecodesIsReported() {
        let past = AnimatedImageError.frameOutOfRange(index: 3, frameCount: 3)
        let farPast = AnimatedImageError.frameOutOfRange(index: 10, frameCount: 3)
        #expect(Self.contract(.noRangeCheck).violations() == ["frame 3 threw nil, not \(past)", "frame 10 threw nil, not \(farPast)"])
    }

    @Test func aSeekBackThatShowsAStaleFrameIsReported() {
        let problems = Self.contract(.staleBackwardSeek).violations()
        #expect(problems.contains("frame 0 differs when a second play starts"), "\(problems)")
        #expect(problems.contains { $0.hasSuffix("differs from sequential decoding") }, "\(problems)")
    }
}

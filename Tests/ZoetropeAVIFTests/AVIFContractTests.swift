import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeAVIF

/// AVIF sources keep the `FrameSource` contract (`FrameSourceContract`).
@Suite(.enabled(if: AVIFTestEncoder.isAvailable, "libavif cannot encode with aom here")) struct AVIFContractTests {
    /// Seven 16×8 frames with a key frame every third frame, so seeks restart from 0, 3 or 6.
    static func sequence() throws -> Data {
        var e = AVIFTestEncoder(width: 16, height: 8)
        e.keyframeInterval = 3
        var frames: [AVIFTestEncoder.Frame] = []
        for i in 0..<7 {
            let left: [UInt16] = [UInt16(30 * i), 200, 40, 255]
            let right: [UInt16] = [90, UInt16(20 * i), 250, UInt16(60 + 20 * i)]
            frames.append(e.halves(left, right, durationMs: 40))
        }
        return try e.encode(frames)
    }

    @Test func aSequenceWithKeyFramesKeepsTheContract() throws {
        let data = try Self.sequence()
        let source = try #require(try AVIFCoder().makeFrameSource(data: data, options: .default) as? any SeekCostReporting)
        #expect((0..<7).map(source.restartFrame) == [0, 0, 0, 3, 3, 3, 6])
        let contract = FrameSourceContract(coder: AVIFCoder(), data: data)
        #expect(contract.violations() == [])
    }

    @Test func anAlphaSequenceKeepsTheContract() throws {
        let data = try AVIFSequenceDecodingTests.alphaSequence()
        #expect(FrameSourceContract(coder: AVIFCoder(), data: data).violations() == [])
    }

    @Test func aStillKeepsTheContract() throws {
        let e = AVIFTestEncoder(width: 8, height: 8)
        let data = try e.encode([e.halves([255, 0, 0, 255], [0, 0, 255, 128], durationMs: 0)], still: true)
        #expect(FrameSourceContract(coder: AVIFCoder(), data: data).violations() == [])
    }
}

import Testing
import Zoetrope

@testable import ZoetropeGIF

/// GIF's fast paths and the open it picks (`DecoderTuning+GIF.swift`).
@Suite struct GIFTuningTests {
    let tuning = DecoderTuning.standard

    @Test func gifOpensWholeBelowTheTwoStepSizeAndLazilyAboveIt() {
        let edge = tuning.gifTwoStepMinimumBytes
        #expect(edge == 256 << 10)
        #expect(tuning.gifOpenStrategy(byteCount: edge - 1) == .wholeIndex)
        #expect(tuning.gifOpenStrategy(byteCount: edge) == .lazyInfo)
        #expect(tuning.without(.gifTwoStep).gifOpenStrategy(byteCount: 1 << 40) == .wholeIndex)
    }

    @Test func scansFollowTheirThreshold() {
        #expect(tuning.gifParallelScanMinimumBytes == 1 << 20)
        #expect(tuning.gifScanThreads(byteCount: tuning.gifParallelScanMinimumBytes - 1, availableCores: 4) == 1)
        #expect(tuning.gifScanThreads(byteCount: tuning.gifParallelScanMinimumBytes, availableCores: 4) == 4)
        #expect(tuning.gifScanThreads(byteCount: tuning.gifParallelScanMinimumBytes, availableCores: 0) == 1)
    }

    @Test func withoutItsPathsAGIFOpensWholeAndScansOnOneThread() {
        let plain = tuning.without([.gifTwoStep, .gifParallelScan])
        #expect(plain.gifOpenStrategy(byteCount: 1 << 40) == .wholeIndex)
        #expect(plain.gifScanThreads(byteCount: 1 << 40, availableCores: 8) == 1)
        let forced = plain.forcing([.gifTwoStep, .gifParallelScan])
        #expect(forced.gifOpenStrategy(byteCount: 1) == .lazyInfo)
        #expect(forced.gifScanThreads(byteCount: 1, availableCores: 2) == 2)
    }
}

import Testing

@testable import Zoetrope

@Suite struct DecoderTuningTests {
    let tuning = DecoderTuning.standard

    @Test func gifOpensWholeBelowTheTwoStepSizeAndLazilyAboveIt() {
        let edge = tuning.gifTwoStepMinimumBytes
        #expect(tuning.openStrategy(for: .gif, byteCount: edge - 1, availableCores: 2) == .wholeIndex)
        #expect(tuning.openStrategy(for: .gif, byteCount: edge, availableCores: 2) == .lazyInfo)
        #expect(tuning.openStrategy(for: .gif, byteCount: edge, availableCores: 1) == .lazyInfo)
        #expect(tuning.without(.gifTwoStep).openStrategy(for: .gif, byteCount: 1 << 40, availableCores: 2) == .wholeIndex)
    }

    @Test func apngDrawsBesideTheWalkOnlyPastItsSizeWithASecondCore() {
        let edge = tuning.apngBesideWalkMinimumBytes
        for format in [ImageFormat.apng, .png] {
            #expect(tuning.openStrategy(for: format, byteCount: edge - 1, availableCores: 2) == .wholeIndex)
            #expect(tuning.openStrategy(for: format, byteCount: edge, availableCores: 2) == .firstFrameBesideWalk)
            #expect(tuning.openStrategy(for: format, byteCount: edge, availableCores: 1) == .wholeIndex)
        }
        #expect(tuning.without(.firstFrameBesideWalk).openStrategy(for: .apng, byteCount: edge, availableCores: 2) == .wholeIndex)
    }

    @Test func webpAVIFAndJPEGAlwaysOpenWhole() {
        for format in [ImageFormat.webp, .avif, .jpeg] {
            #expect(tuning.openStrategy(for: format, byteCount: 1 << 40, availableCores: 8) == .wholeIndex)
        }
    }

    @Test func thePlainTuningOpensEveryFileWholeAndStartsNoThread() {
        let plain = DecoderTuning.plain
        for format in [ImageFormat.gif, .apng, .png, .webp, .avif] {
            #expect(plain.openStrategy(for: format, byteCount: 1 << 40, availableCores: 8) == .wholeIndex)
        }
        #expect(plain.gifScanThreads(byteCount: 1 << 40, availableCores: 8) == 1)
        #expect(plain.avifThreads(forFramePixels: 1 << 40, availableCores: 8) == 1)
        #expect(plain.bulk.minimumCanvasPixels == .max)
        #expect(plain == DecoderTuning.standard.without(DecoderTuning.FastPath.allCases))
    }

    @Test func eachPathSwitchesOffAloneAndTheRestStay() {
        for path in DecoderTuning.FastPath.allCases {
            let off = tuning.without(path)
            #expect(off != tuning, "\(path)")
            // Switching off every other path as well gives the plain tuning, and switching
            // off only the others leaves this one as it was.
            #expect(off.without(DecoderTuning.FastPath.allCases) == .plain)
            let others = DecoderTuning.FastPath.allCases.filter { $0 != path }
            #expect(tuning.without(others).without(path) == .plain)
            #expect(tuning.without(others) != .plain, "\(path)")
        }
    }

    @Test func scansAndAVIFThreadsFollowTheirThresholds() {
        #expect(tuning.gifScanThreads(byteCount: tuning.gifParallelScanMinimumBytes - 1, availableCores: 4) == 1)
        #expect(tuning.gifScanThreads(byteCount: tuning.gifParallelScanMinimumBytes, availableCores: 4) == 4)
        #expect(tuning.gifScanThreads(byteCount: tuning.gifParallelScanMinimumBytes, availableCores: 0) == 1)
        #expect(tuning.avifThreads(forFramePixels: tuning.avifSecondThreadMinimumPixels - 1, availableCores: 8) == 1)
        #expect(tuning.avifThreads(forFramePixels: tuning.avifSecondThreadMinimumPixels, availableCores: 8) == 2)
        #expect(tuning.avifThreads(forFramePixels: tuning.avifSecondThreadMinimumPixels, availableCores: 1) == 1)
    }

    @Test func forcingAPathAppliesItToEveryFileSize() {
        let forced = DecoderTuning.plain.forcing(DecoderTuning.FastPath.allCases)
        #expect(forced.openStrategy(for: .gif, byteCount: 1, availableCores: 1) == .lazyInfo)
        #expect(forced.openStrategy(for: .apng, byteCount: 1, availableCores: 2) == .firstFrameBesideWalk)
        // Forcing sets sizes, not cores.
        #expect(forced.openStrategy(for: .apng, byteCount: 1, availableCores: 1) == .wholeIndex)
        #expect(forced.gifScanThreads(byteCount: 1, availableCores: 2) == 2)
        #expect(forced.avifThreads(forFramePixels: 1, availableCores: 2) == 2)
        #expect(forced.bulk.minimumCanvasPixels == 0)
        #expect(forced.without(DecoderTuning.FastPath.allCases) == .plain)
    }

    @Test func optionsCarryTheTuningAndDifferWhenAPathIsOff() {
        let options = DecodingOptions()
        #expect(options.tuning == .standard)
        let off = options.without(.bulkWorkers, .gifTwoStep)
        #expect(off.tuning == DecoderTuning.standard.without([.bulkWorkers, .gifTwoStep]))
        #expect(off != options)
    }
}

import Testing

@testable import Zoetrope

@Suite struct DecoderTuningTests {
    let tuning = DecoderTuning.standard
    /// A path as a codec declares one: the mechanism knows it only by its name and threshold.
    static let codecPath = DecoderTuning.FastPath("test-codec-path", standardThreshold: 1_000)
    static let paths: [DecoderTuning.FastPath] = [.bulkWorkers, .parallelColor, codecPath]
    static let plain = DecoderTuning.standard.without(paths)

    @Test func aPathAppliesFromItsStandardThresholdUnlessToldOtherwise() {
        #expect(tuning.threshold(Self.codecPath) == 1_000)
        #expect(tuning.threshold(.bulkWorkers) == 16_384)
        #expect(tuning.bulk.minimumCanvasPixels == 16_384)
        #expect(tuning.threshold(.parallelColor) == 65_536)
        #expect(tuning.without(Self.codecPath).threshold(Self.codecPath) == .max)
        #expect(tuning.forcing([Self.codecPath]).threshold(Self.codecPath) == 0)
    }

    @Test func thePlainTuningStartsNoThread() {
        let plain = Self.plain
        #expect(plain.bulk.minimumCanvasPixels == .max)
        #expect(plain.colorBands(forPixels: 1 << 40, rows: 1_000, threads: nil, availableCores: 8) == 1)
        #expect(plain.threshold(Self.codecPath) == .max)
    }

    @Test func eachPathSwitchesOffAloneAndTheRestStay() {
        for path in Self.paths {
            let off = tuning.without(path)
            #expect(off != tuning, "\(path)")
            // Switching off every other path as well gives the plain tuning, and switching
            // off only the others leaves this one as it was.
            #expect(off.without(Self.paths) == Self.plain)
            let others = Self.paths.filter { $0 != path }
            #expect(tuning.without(others).without(path) == Self.plain)
            #expect(tuning.without(others) != Self.plain, "\(path)")
        }
    }

    @Test func colorBandsFollowTheirThreshold() {
        let edge = tuning.threshold(.parallelColor)
        #expect(tuning.colorBands(forPixels: edge - 1, rows: 100, threads: nil, availableCores: 4) == 1)
        #expect(tuning.colorBands(forPixels: edge, rows: 100, threads: nil, availableCores: 4) == 4)
        #expect(tuning.colorBands(forPixels: edge, rows: 100, threads: 2, availableCores: 4) == 2)
        #expect(tuning.colorBands(forPixels: edge, rows: 3, threads: nil, availableCores: 4) == 3)
    }

    @Test func forcingAPathAppliesItToEveryFileSize() {
        let forced = Self.plain.forcing(Self.paths)
        #expect(forced.bulk.minimumCanvasPixels == 0)
        #expect(forced.threshold(Self.codecPath) == 0)
        #expect(forced.colorBands(forPixels: 1, rows: 1, threads: nil, availableCores: 2) == 1)
        #expect(forced.without(Self.paths) == Self.plain)
    }

    @Test func optionsCarryTheTuningAndDifferWhenAPathIsOff() {
        let options = DecodingOptions()
        #expect(options.tuning == .standard)
        let off = options.without(.bulkWorkers, Self.codecPath)
        #expect(off.tuning == DecoderTuning.standard.without([.bulkWorkers, Self.codecPath]))
        #expect(off != options)
    }
}

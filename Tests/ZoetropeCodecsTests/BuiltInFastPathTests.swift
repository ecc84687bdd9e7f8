import Testing
import Zoetrope
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeBuiltInCoders
import ZoetropeGIF

/// The built-in fast paths together (`DecoderTuning.FastPath.builtIn`, `DecoderTuning.plain`).
@Suite struct BuiltInFastPathTests {
    let tuning = DecoderTuning.standard
    let all = DecoderTuning.FastPath.builtIn

    @Test func everyPathHasItsOwnName() {
        #expect(Set(all.map(\.name)).count == all.count)
        #expect(all.count == 6)
    }

    @Test func thePlainTuningOpensEveryFileWholeAndStartsNoThread() {
        let plain = DecoderTuning.plain
        #expect(plain.gifOpenStrategy(byteCount: 1 << 40) == .wholeIndex)
        #expect(plain.apngOpenStrategy(byteCount: 1 << 40, availableCores: 8) == .wholeIndex)
        #expect(plain.gifScanThreads(byteCount: 1 << 40, availableCores: 8) == 1)
        #expect(plain.avifThreads(forFramePixels: 1 << 40, availableCores: 8) == 1)
        #expect(plain.bulk.minimumCanvasPixels == .max)
        #expect(plain == DecoderTuning.standard.without(all))
    }

    @Test func eachPathSwitchesOffAloneAndTheRestStay() {
        for path in all {
            let off = tuning.without(path)
            #expect(off != tuning, "\(path)")
            #expect(off.without(all) == .plain)
            let others = all.filter { $0 != path }
            #expect(tuning.without(others).without(path) == .plain)
            #expect(tuning.without(others) != .plain, "\(path)")
        }
    }

    @Test func forcingEveryPathAndSwitchingThemOffAgainIsPlain() {
        let forced = DecoderTuning.plain.forcing(all)
        #expect(forced.gifOpenStrategy(byteCount: 1) == .lazyInfo)
        #expect(forced.apngOpenStrategy(byteCount: 1, availableCores: 2) == .firstFrameBesideWalk)
        #expect(forced.bulk.minimumCanvasPixels == 0)
        #expect(forced.without(all) == .plain)
    }
}

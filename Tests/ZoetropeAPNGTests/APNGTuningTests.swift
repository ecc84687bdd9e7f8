import Testing
import Zoetrope

@testable import ZoetropeAPNG

/// APNG's fast path and the open it picks (`DecoderTuning+APNG.swift`).
@Suite struct APNGTuningTests {
    let tuning = DecoderTuning.standard

    @Test func apngDrawsBesideTheWalkOnlyPastItsSizeWithASecondCore() {
        let edge = tuning.apngBesideWalkMinimumBytes
        #expect(edge == 4 << 20)
        #expect(tuning.apngOpenStrategy(byteCount: edge - 1, availableCores: 2) == .wholeIndex)
        #expect(tuning.apngOpenStrategy(byteCount: edge, availableCores: 2) == .firstFrameBesideWalk)
        #expect(tuning.apngOpenStrategy(byteCount: edge, availableCores: 1) == .wholeIndex)
        #expect(tuning.without(.firstFrameBesideWalk).apngOpenStrategy(byteCount: edge, availableCores: 2) == .wholeIndex)
    }

    @Test func forcingSetsTheSizeNotTheCores() {
        let forced = tuning.without(.firstFrameBesideWalk).forcing([.firstFrameBesideWalk])
        #expect(forced.apngOpenStrategy(byteCount: 1, availableCores: 2) == .firstFrameBesideWalk)
        #expect(forced.apngOpenStrategy(byteCount: 1, availableCores: 1) == .wholeIndex)
    }
}

import Testing
import Zoetrope

@testable import ZoetropeAVIF

/// AVIF's fast path: dav1d's second thread (`DecoderTuning+AVIF.swift`).
@Suite struct AVIFTuningTests {
    let tuning = DecoderTuning.standard

    @Test func threadsFollowTheSecondThreadThreshold() {
        #expect(tuning.avifSecondThreadMinimumPixels == 1_000_000)
        #expect(tuning.avifThreads(forFramePixels: tuning.avifSecondThreadMinimumPixels - 1, availableCores: 8) == 1)
        #expect(tuning.avifThreads(forFramePixels: tuning.avifSecondThreadMinimumPixels, availableCores: 8) == 2)
        #expect(tuning.avifThreads(forFramePixels: tuning.avifSecondThreadMinimumPixels, availableCores: 1) == 1)
        #expect(tuning.without(.avifSecondThread).avifThreads(forFramePixels: 1 << 40, availableCores: 8) == 1)
        #expect(tuning.forcing([.avifSecondThread]).avifThreads(forFramePixels: 1, availableCores: 2) == 2)
    }
}

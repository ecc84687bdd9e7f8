import Testing
import Zoetrope

@testable import ZoetropeAVIF

@Suite struct AVIFThreadCountTests {
    @Test func theDefaultNeverExceedsTheCoresTheProcessMayUse() {
        #expect(AVIFCoder.defaultThreadCount(forFramePixels: 1920 * 1080, availableCores: 8) == 2)
        #expect(AVIFCoder.defaultThreadCount(forFramePixels: 1920 * 1080, availableCores: 1) == 1)
        #expect(AVIFCoder.defaultThreadCount(forFramePixels: 128 * 128, availableCores: 8) == 1)
        #expect(AVIFCoder.defaultThreadCount(forFramePixels: 1920 * 1080, availableCores: 0) == 1)
        #expect(AVIFCoder.defaultThreadCount(forFramePixels: 1920 * 1080) <= ProcessorBudget.availableCores)
    }
}

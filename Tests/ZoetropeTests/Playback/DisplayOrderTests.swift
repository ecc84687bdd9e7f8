import Testing
import ZoetropeTestSupport

/// The check the timing-dependent display tests rely on accepts exactly what is promised:
/// the player's order less counted skips of the oldest waiting frames.
@Suite struct DisplayOrderTests {
    @Test func documentedSkipsPassWhenCounted() {
        // Produced 0 1 2 0 1 2 0 1 2 0 1 2; frames 2–5 skipped while the main actor was busy.
        #expect(DisplayOrder.violations(shown: [0, 1, 0, 1, 2, 0, 1, 2], frameCount: 3, produced: 12, skipped: 4) == [])
        #expect(DisplayOrder.violations(shown: [0, 1, 2], frameCount: 3, produced: 3, skipped: 0) == [])
    }

    @Test func reorderingsUncountedSkipsAndLostNewestFramesFail() {
        // The failure the sample test once reported: a skip nobody counted.
        #expect(DisplayOrder.violations(shown: [1, 2, 0, 0, 1, 2], frameCount: 3, produced: 6, skipped: 0) != [])
        // Counted, but more frames shown than the player produced in that order.
        #expect(DisplayOrder.violations(shown: [0, 2, 1], frameCount: 3, produced: 4, skipped: 1) != [])
        // The newest frame never arrived.
        #expect(DisplayOrder.violations(shown: [0, 1], frameCount: 3, produced: 3, skipped: 1) != [])
    }
}

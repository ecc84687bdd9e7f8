import Foundation
import Testing
import ZoetropeCodecs

/// The parts of issue 13's application sample that do not involve the player, as written
/// there, checked for what its comments say.
@Suite struct IssueSampleTests {
    @MainActor @Test func theSampleLoadsIteratesTimesAndExplains() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(CodecsFixture.gif(delays: [10, 20, 10]), to: "sample.gif").path

        CoderRegistry.shared.registerBuiltInCoders()               // one call, safe to repeat
        let image = try AnimatedImage(contentsOf: URL(fileURLWithPath: path))

        var printed: [String] = []
        for try await frame in image.frames() {                     // every frame in order, decoded lazily, bounded memory
            printed.append("\(frame.index) \(frame.duration) \(frame.pixels.size.width)x\(frame.pixels.size.height)")
        }
        #expect(printed == ["0 100 ms 2x2", "1 200 ms 2x2", "2 100 ms 2x2"])
        let timeline = image.info.uniformTimeline()                 // seed 003: GCD of the display durations
        #expect(timeline.interval == .milliseconds(100) && timeline.frames == [0, 1, 1, 2])

        var configuration = PlayerConfiguration()
        configuration.delayPolicy = .imageIO                        // seed 000: < 11 ms -> 100 ms, as ImageIO players do
        #expect(configuration.delayPolicy.displayDuration(for: .milliseconds(5)) == .milliseconds(100))

        do {
            _ = try AnimatedImage(data: Data("not an image".utf8))
            Issue.record("text decoded as an image")
        } catch {
            #expect(error.localizedDescription
                    == "unrecognized image format (no registered coder matches the content; first bytes: 6e 6f 74 20 61 6e 20 69)")
        }
    }
}

import Foundation
import Testing
import ZoetropeUI

@testable import Zoetrope

@Suite("Memory pressure")
struct BufferingMemoryPressureTests {
    static let frameBytes = 16 * 8 * 4

    @Test("under pressure every player drops to two frames, and grows back after calm")
    func shrinkAndGrow() {
        let signal = MemoryPressureSignal()
        var harnesses: [PlaybackHarness] = []
        for _ in 0..<3 {
            var config = PlayerConfiguration(bufferPolicy: .keepAll, memoryPressure: signal)
            config.pressureCalmDelay = .seconds(2)
            let h = PlaybackHarness(
                source: SyntheticFrameSource(frameCount: 20, size: PixelSize(width: 16, height: 8)),
                configuration: config)
            h.player.play()
            h.run(until: ns(1.5))
            #expect(h.player.diagnostics.framesHeld == 20)
            harnesses.append(h)
        }
        signal.send(.critical)
        for h in harnesses {
            #expect(h.player.isUnderMemoryPressure)
            #expect(h.player.windowSize == 2)
            #expect(h.player.diagnostics.bytesHeld <= 3 * Self.frameBytes)
            h.run(from: ns(1.5), until: ns(3)) { _, p in #expect(p.lastTickReport!.bytesHeld <= 3 * Self.frameBytes) }
        }
        signal.send(.normal)
        for h in harnesses {
            // Calm must last 2 s of clock time: the first calm tick is at 3.0 s.
            h.run(from: ns(3), until: ns(4.9))
            #expect(h.player.isUnderMemoryPressure)
            h.run(from: ns(4.9), until: ns(5.1))
            #expect(!h.player.isUnderMemoryPressure)
            h.run(from: ns(5.1), until: ns(7))
            #expect(h.player.diagnostics.framesHeld == 20)
        }
    }

    @Test("pressure-stall information parses, and maps to levels")
    func psiParsing() throws {
        let text = """
            some avg10=12.50 avg60=3.00 avg300=0.50 total=123456
            full avg10=1.25 avg60=0.10 avg300=0.00 total=2345
            """
        let sample = try #require(PressureStallSample(parsing: text))
        #expect(sample.someAvg10 == 12.5)
        #expect(sample.fullAvg10 == 1.25)
        #expect(PressureStallSample(parsing: "garbage") == nil)
        let monitor = LinuxMemoryPressureMonitor(path: "/nonexistent", signal: MemoryPressureSignal())
        #expect(monitor.level(for: sample) == .warning)
        #expect(monitor.level(for: PressureStallSample(someAvg10: 1, fullAvg10: 0)) == .normal)
        #expect(monitor.level(for: PressureStallSample(someAvg10: 1, fullAvg10: 6)) == .critical)
        #expect(monitor.level(for: PressureStallSample(someAvg10: 25, fullAvg10: 0)) == .critical)
        #expect(!monitor.isAvailable)
        #expect(monitor.poll() == nil)
        #expect(!monitor.start())
    }

    @Test("the monitor sends what the kernel file says")
    func psiPolling() throws {
        let path = NSTemporaryDirectory() + "zoetrope-psi-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "some avg10=30.00 avg60=0 avg300=0 total=0\nfull avg10=0.00 avg60=0 avg300=0 total=0\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let signal = MemoryPressureSignal()
        let monitor = LinuxMemoryPressureMonitor(path: path, signal: signal)
        #expect(monitor.poll() == .critical)
        #expect(signal.level == .critical)
        try "some avg10=0.00 avg60=0 avg300=0 total=0\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(monitor.poll() == .normal)
        #expect(signal.level == .normal)
    }

    @Test(
        "the monitor reads the kernel's own file",
        .enabled(
            if: FileManager.default.isReadableFile(atPath: LinuxMemoryPressureMonitor.defaultPath),
            "the kernel's pressure file is not readable here"))
    func psiFromTheKernel() {
        #expect(LinuxMemoryPressureMonitor(signal: MemoryPressureSignal()).poll() != nil)
    }
}

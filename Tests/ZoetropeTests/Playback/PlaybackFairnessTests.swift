import Testing
import ZoetropeTesting

@testable import Zoetrope

@Suite("Decode fairness")
struct PlaybackFairnessTests {
    @Test("players sharing one decode worker take turns: none gets a second job before the others get one")
    func roundRobin() {
        let clock = ManualClock()
        let executor = RecordingExecutor(SimulatedDecodeExecutor(workerCount: 1, constantCost: .milliseconds(5)))
        let attachment = executor.inner.attach(to: clock)
        let players = (0..<4).map { _ in
            AnimationPlayer(
                source: SyntheticFrameSource(frameCount: 40), clock: clock,
                configuration: PlayerConfiguration(bufferPolicy: .keepAll, executor: executor, memoryPressure: nil))
        }
        for p in players { p.play() }
        clock.run(.fixed(hertz: 60), for: .milliseconds(400))
        let owners = executor.submittedBy
        #expect(owners.count >= 60)
        // Every run of four consecutive submissions comes from four different players.
        for i in 0..<(owners.count / 4) {
            #expect(Set(owners[(4 * i)..<(4 * i + 4)]).count == 4, "round \(i): \(owners[(4 * i)..<(4 * i + 4)])")
        }
        _ = attachment
    }
}

import Foundation
import Testing
import ZoetropeTesting

@testable import Zoetrope

@Suite("What keeps players, displays and worker pools alive")
struct PlaybackLifetimeTests {
    @Test("a headless display and its player do not keep each other alive")
    func headlessDisplayHoldsItsPlayerWeakly() {
        let clock = ManualClock()
        let executor = SimulatedDecodeExecutor()
        let attachment = executor.attach(to: clock)
        let display = HeadlessDisplay()
        weak var weakPlayer: AnimationPlayer?
        weak var weakDisplay: HeadlessDisplay?
        do {
            let player = AnimationPlayer(
                source: SyntheticFrameSource(frameCount: 3), clock: clock,
                configuration: PlayerConfiguration(executor: executor, memoryPressure: nil))
            display.setAnimation(player)
            clock.tick(atNanoseconds: 0)
            #expect(display.currentFrameIndex == 0)
            weakPlayer = player
            let other = HeadlessDisplay()
            other.setAnimation(player, autoPlay: false)
            weakDisplay = other
        }
        // The player is gone although a display still names it, and so is the display it last played on.
        #expect(weakPlayer == nil)
        #expect(weakDisplay == nil)
        if case .empty = display.content {} else { Issue.record("a freed player's display reads empty") }
        #expect(clock.subscriberCount == 0)
        _ = attachment
    }

    @Test("a worker pool's threads end once the pool is freed, and do not keep it alive")
    func workerThreadsEnd() {
        var pool: DecodeWorkerPool? = DecodeWorkerPool(workerCount: 2)
        weak let weakPool = pool
        let queue = pool!.queue
        let ran = Locked(0)
        let source = SyntheticFrameSource(frameCount: 1)
        for i in 0..<4 {
            pool!.submit(DecodeJob(frameIndex: i, source: source, ownerID: 0) { ran.withLock { $0 += 1 } })
        }
        #expect(eventually { ran.withLock { $0 } == 4 })
        #expect(queue.threadsStarted >= 1)
        pool = nil
        #expect(weakPool == nil)
        #expect(eventually { queue.liveThreads == 0 })
    }
}

import Foundation
import Testing
import Zoetrope

@Suite struct NativeThreadTests {
    /// What a detached thread saw, handed back under a `ThreadCondition`.
    final class Report: @unchecked Sendable {
        // @unchecked: `seen` is read and written only with `condition` locked.
        let condition = ThreadCondition()
        var seen: [String] = []

        func add(_ entry: String) {
            condition.lock()
            seen.append(entry)
            condition.broadcast()
            condition.unlock()
        }

        func waitFor(_ count: Int) -> [String] {
            condition.lock()
            while seen.count < count { condition.wait() }
            defer { condition.unlock() }
            return seen
        }
    }

    @Test func aDetachedThreadRunsItsBodyOffTheMainThreadAsFoundationSeesIt() {
        let report = Report()
        NativeThread.detach(name: "zoetrope.test") {
            report.add("main=\(NativeThread.isMain) foundation=\(Thread.isMainThread)")
        }
        #expect(report.waitFor(1) == ["main=false foundation=false"])
    }

    /// `pair` returns only after both halves ran, one on the caller and one on a new
    /// thread, and what the other thread wrote is there to read (the sanitizer run checks
    /// the ordering). The other half is slower here, so the join really waits.
    @Test func aPairRunsTheOtherHalfOnANewThreadAndJoinsIt() {
        final class Box: @unchecked Sendable {
            // @unchecked: written by the other thread before the join, read after it.
            var values: [Int] = []
            var onCaller = true
        }
        let box = Box()
        let caller = pthread_self()
        var here: [Int] = []
        NativeThread.pair(
            name: "zoetrope.test",
            here: {
                here = (0..<1000).map { $0 * 2 }
            },
            other: {
                box.onCaller = pthread_equal(pthread_self(), caller) != 0
                usleep(20_000)
                box.values = (0..<1000).map { $0 * 3 }
            })
        #expect(here.last == 1998)
        #expect(box.values.count == 1000 && box.values.last == 2997)
        #expect(!box.onCaller)
    }

    @Test func theMainThreadTestAgreesWithFoundationOnTheMainActor() async {
        let (native, foundation) = await MainActor.run { (NativeThread.isMain, Thread.isMainThread) }
        #expect(native == foundation)
        #expect(NativeThread.isMain == Thread.isMainThread)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/thread-self/comm"), "no /proc/thread-self/comm (Linux only)"))
    func aDetachedThreadCarriesItsNameCutToTheKernelLimit() {
        let report = Report()
        @Sendable func addOwnName() {
            let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
            report.add(comm.trimmingCharacters(in: .newlines))
        }
        NativeThread.detach(name: "zoetrope.test", addOwnName)
        _ = report.waitFor(1)
        NativeThread.detach(name: "zoetrope.a-name-too-long", addOwnName)
        #expect(report.waitFor(2) == ["zoetrope.test", "zoetrope.a-name"])
    }

    @Test func aConditionKeepsCountsExactAcrossThreadsAndWakesItsWaiter() {
        final class Counter: @unchecked Sendable {
            // @unchecked: both fields are touched only with `condition` locked.
            let condition = ThreadCondition()
            var value = 0
            var finished = 0
        }
        let counter = Counter()
        let threads = 4, increments = 20_000
        for i in 0..<threads {
            NativeThread.detach(name: "zoetrope.t\(i)") {
                for _ in 0..<increments {
                    counter.condition.lock()
                    counter.value += 1
                    counter.condition.unlock()
                }
                counter.condition.lock()
                counter.finished += 1
                counter.condition.signal()
                counter.condition.unlock()
            }
        }
        counter.condition.lock()
        while counter.finished < threads { counter.condition.wait() }
        let value = counter.value
        counter.condition.unlock()
        #expect(value == threads * increments)
    }
}

import Testing
import Zoetrope

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct ProcessorBudgetTests {
    @Test func cgroupV2CPUMaxIsRoundedUpAndMaxMeansNoLimit() {
        #expect(ProcessorBudget.cpuLimit(cgroupV2CPUMax: "max 100000\n") == nil)
        #expect(ProcessorBudget.cpuLimit(cgroupV2CPUMax: "150000 100000\n") == 2)
        #expect(ProcessorBudget.cpuLimit(cgroupV2CPUMax: "50000 100000") == 1)
        #expect(ProcessorBudget.cpuLimit(cgroupV2CPUMax: "200000 100000\n") == 2)
        #expect(ProcessorBudget.cpuLimit(cgroupV2CPUMax: "400000 100000\n") == 4)
        #expect(ProcessorBudget.cpuLimit(cgroupV2CPUMax: "1 100000") == 1)
        // An enormous quota stays finite instead of overflowing.
        #expect(ProcessorBudget.cpuLimit(cgroupV2CPUMax: "\(Int.max) 1000") == Int.max / 1000 + 1)
    }

    @Test func malformedCgroupV2ContentsAreIgnored() {
        for garbage in [
            "", "\n", "max", "100000", "abc 100000", "150000 0", "150000 -100000", "-5 100000",
            "150000 100000 7", "1.5 1", "0 100000", "99999999999999999999999 100000",
        ] {
            #expect(ProcessorBudget.cpuLimit(cgroupV2CPUMax: garbage) == nil, "\(garbage)")
        }
    }

    @Test func cgroupV1QuotaAndPeriod() {
        #expect(ProcessorBudget.cpuLimit(cgroupV1Quota: "-1\n", period: "100000\n") == nil)
        #expect(ProcessorBudget.cpuLimit(cgroupV1Quota: "150000\n", period: "100000\n") == 2)
        #expect(ProcessorBudget.cpuLimit(cgroupV1Quota: "50000\n", period: "100000\n") == 1)
        #expect(ProcessorBudget.cpuLimit(cgroupV1Quota: "300000", period: "100000") == 3)
        #expect(ProcessorBudget.cpuLimit(cgroupV1Quota: "junk", period: "100000") == nil)
        #expect(ProcessorBudget.cpuLimit(cgroupV1Quota: "150000", period: "") == nil)
        #expect(ProcessorBudget.cpuLimit(cgroupV1Quota: "150000", period: "0") == nil)
    }

    @Test func procSelfCgroupNamesTheV2GroupAndTheV1CPUGroup() {
        let hybrid = """
            9:name=systemd:/user.slice
            4:memory:/process_api/d49f
            2:cpuacct,cpu:/docker/abc
            0::/user.slice/session-1.scope
            """
        let paths = ProcessorBudget.cgroupPaths(procSelfCgroup: hybrid)
        #expect(paths.v2 == "/user.slice/session-1.scope")
        #expect(paths.v1CPU == "/docker/abc")

        let v2Only = ProcessorBudget.cgroupPaths(procSelfCgroup: "0::/\n")
        #expect(v2Only.v2 == "/")
        #expect(v2Only.v1CPU == nil)

        // "cpuset" is not "cpu"; lines that are not three fields with a path are skipped.
        let noise = ProcessorBudget.cgroupPaths(procSelfCgroup: "3:cpuset:/a\ngarbage\n1:cpu\n5:cpu:relative\n")
        #expect(noise.v2 == nil)
        #expect(noise.v1CPU == nil)
    }

    @Test func theBudgetIsTheTightestLimitAndAtLeastOne() {
        #expect(ProcessorBudget.combine(affinity: 8, limits: []) == 8)
        #expect(ProcessorBudget.combine(affinity: 8, limits: [nil, 2, nil, 3]) == 2)
        #expect(ProcessorBudget.combine(affinity: 2, limits: [4]) == 2)
        #expect(ProcessorBudget.combine(affinity: 0, limits: []) == 1)
    }

    @Test func thisProcessHasAtLeastOneCoreAndNoMoreThanTheMachine() {
        let cores = ProcessorBudget.availableCores
        #expect(cores >= 1)
        #expect(cores == ProcessorBudget.measure())
        #expect(cores <= sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    @Test func thePlayersSharedPoolTakesItsSizeFromTheBudget() {
        let threads = ProcessorBudget.playbackDecodeThreads
        #expect(threads == min(4, ProcessorBudget.availableCores))
        #expect(DecodeWorkerPool.shared.workerCount == threads)
    }
}

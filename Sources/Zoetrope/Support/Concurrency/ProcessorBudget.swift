#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Foundation
#endif

/// How many CPU cores this process may keep busy: the default number of decoding threads.
///
/// A machine's core count overstates what a process gets when its CPU affinity is
/// restricted (`taskset`, `docker --cpuset-cpus`) or when its control group caps its CPU
/// time (`docker --cpus`, Kubernetes CPU limits). More busy threads than that only queue
/// behind each other and hand work back and forth.
///
/// On Linux, ``availableCores`` is the number of CPUs in the process's affinity mask
/// (`sched_getaffinity`), capped by the cgroup CPU quota rounded up: cgroup v2's `cpu.max`
/// (`"quota period"`, or `"max"` for no limit) and cgroup v1's `cpu.cfs_quota_us` /
/// `cpu.cfs_period_us` (a quota of `-1` for no limit), read for the process's own group and
/// each group above it (the tightest wins); when the mask cannot be read, the online
/// processors (`sysconf(_SC_NPROCESSORS_ONLN)`). On Apple platforms it is
/// `ProcessInfo.activeProcessorCount`. It is never below 1.
///
/// The parsing is done by pure functions (package-visible) so the tests can check it on
/// crafted file contents.
package enum ProcessorBudget {
    /// The cores this process may use, at least 1, measured once per process (the first
    /// time it is read). `DecodingOptions.threadCount == nil` means "this many" wherever a
    /// decoder runs work on several threads.
    package static let availableCores: Int = measure()

    /// Decode threads for the players' shared pool (`DecodeWorkerPool.shared`): one per
    /// available core, at most 4.
    package static var playbackDecodeThreads: Int { min(4, max(1, availableCores)) }

    /// Measures the budget now (``availableCores`` keeps the first measurement).
    package static func measure() -> Int {
        #if os(Linux) || os(Android)
        return combine(affinity: affinityCount() ?? sysconf(Int32(_SC_NPROCESSORS_ONLN)), limits: cgroupLimits())
        #elseif canImport(Darwin)
        return max(1, ProcessInfo.processInfo.activeProcessorCount)
        #else
        return 1
        #endif
    }

    /// The budget from the CPUs in the affinity mask and the cgroup CPU limits found (nil
    /// entries: no limit, or unreadable): the smallest, at least 1.
    package static func combine(affinity: Int, limits: [Int?]) -> Int {
        var cores = affinity
        for case let limit? in limits { cores = min(cores, limit) }
        return max(1, cores)
    }

    /// The CPUs a cgroup v2 `cpu.max` file allows: `"150000 100000"` is 1.5 CPUs, rounded
    /// up to 2; `"max 100000"` (no limit), an empty file or anything malformed is nil.
    package static func cpuLimit(cgroupV2CPUMax contents: String) -> Int? {
        let fields = contents.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        guard fields.count == 2 else { return nil }
        return cpuLimit(quota: Int(fields[0]), period: Int(fields[1]))
    }

    /// The CPUs cgroup v1's `cpu.cfs_quota_us` and `cpu.cfs_period_us` allow, rounded up:
    /// a quota of `-1` (no limit), or contents that are not positive integers, give nil.
    package static func cpuLimit(cgroupV1Quota quota: String, period: String) -> Int? {
        cpuLimit(quota: Int(trimmed(quota)), period: Int(trimmed(period)))
    }

    /// The process's cgroup paths from the contents of `/proc/self/cgroup`: the v2 (unified)
    /// group, from the line `0::/path`, and the v1 group of the `cpu` controller, from a
    /// line `N:cpu,cpuacct:/path` (nil when absent).
    package static func cgroupPaths(procSelfCgroup contents: String) -> (v2: String?, v1CPU: String?) {
        var v2: String?
        var v1: String?
        for line in contents.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[2].hasPrefix("/") else { continue }
            if parts[0] == "0" && parts[1].isEmpty {
                v2 = String(parts[2])
            } else if parts[1].split(separator: ",").contains("cpu") {
                v1 = String(parts[2])
            }
        }
        return (v2, v1)
    }

    // MARK: - Private

    private static func cpuLimit(quota: Int?, period: Int?) -> Int? {
        guard let quota, let period, quota > 0, period > 0 else { return nil }
        // Rounded up without overflow: a quota of Int.max stays finite.
        return quota / period + (quota % period == 0 ? 0 : 1)
    }

    private static func trimmed(_ s: String) -> Substring {
        s.drop(while: { $0 == " " || $0 == "\n" }).prefix(while: { $0 != " " && $0 != "\n" })
    }

    #if os(Linux) || os(Android)
    /// CPUs in the calling thread's affinity mask, or nil when the system will not say.
    /// Swift's Glibc module does not export `sched_getaffinity` (a GNU extension), so it
    /// is looked up by name in the C library already loaded.
    private static func affinityCount() -> Int? {
        typealias GetAffinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
        guard let handle = dlopen(nil, RTLD_LAZY) else { return nil }
        defer { dlclose(handle) }
        guard let symbol = dlsym(handle, "sched_getaffinity") else { return nil }
        let getAffinity = unsafeBitCast(symbol, to: GetAffinity.self)
        // The kernel refuses (EINVAL) a mask smaller than its own: grow from 1024 CPUs.
        var words = 16
        while words <= 16_384 {
            var mask = [UInt64](repeating: 0, count: words)
            let r = mask.withUnsafeMutableBytes { getAffinity(0, $0.count, $0.baseAddress!) }
            if r == 0 { return mask.reduce(0) { $0 + $1.nonzeroBitCount } }
            guard errno == EINVAL else { return nil }
            words *= 4
        }
        return nil
    }

    /// The cgroup CPU limits of this process's groups and the groups above them.
    private static func cgroupLimits() -> [Int?] {
        guard let text = readSmallFile("/proc/self/cgroup") else { return [] }
        let paths = cgroupPaths(procSelfCgroup: text)
        var limits: [Int?] = []
        if let v2 = paths.v2 {
            for mount in ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"] {
                for dir in groupAndAncestors(mount: mount, path: v2) {
                    if let c = readSmallFile(dir + "/cpu.max") { limits.append(cpuLimit(cgroupV2CPUMax: c)) }
                }
            }
        }
        if let v1 = paths.v1CPU {
            for mount in ["/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpuacct,cpu"] {
                for dir in groupAndAncestors(mount: mount, path: v1) {
                    if let q = readSmallFile(dir + "/cpu.cfs_quota_us"), let p = readSmallFile(dir + "/cpu.cfs_period_us") {
                        limits.append(cpuLimit(cgroupV1Quota: q, period: p))
                    }
                }
            }
        }
        return limits
    }

    /// `mount + path`, then each parent up to `mount` itself. Inside a container the path
    /// named in /proc/self/cgroup may not exist under the mount; the mount's root is then
    /// the container's own group.
    private static func groupAndAncestors(mount: String, path: String) -> [String] {
        var parts = path.split(separator: "/").map(String.init)
        var dirs: [String] = []
        while true {
            dirs.append(parts.isEmpty ? mount : mount + "/" + parts.joined(separator: "/"))
            if parts.isEmpty { break }
            parts.removeLast()
        }
        return dirs
    }

    /// The first 4 KiB of a file as UTF-8, or nil when it cannot be opened.
    private static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else { return nil }
        return String(decoding: buffer[..<n], as: UTF8.self)
    }
    #endif
}

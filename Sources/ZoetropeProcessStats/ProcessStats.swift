#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time and resident memory of this process, from the kernel: the one reader the
/// tool's `bench` command and the benchmark executables share.
///
/// On Linux the peak resident size (`VmHWM`) can be reset through `/proc/self/clear_refs`,
/// so `zoetrope bench` reports each file's own peak rather than the largest seen so far.
package enum ProcessStats {
    /// User + system CPU seconds used so far by every thread (`getrusage`, as the C
    /// reference harness measures).
    package static func cpuSeconds() -> Double {
        let usage = resourceUsage()
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return user + system
    }

    /// Resident bytes now (`VmRSS`), or nil where the system does not say.
    package static func residentBytes() -> Int? {
        statusKilobytes("VmRSS").map { $0 * 1024 }
    }

    /// The peak resident size in bytes since start (or since the last successful
    /// `resetPeak`): `VmHWM` on Linux, the `getrusage` maximum elsewhere.
    package static func peakResidentBytes() -> Int {
        if let kb = statusKilobytes("VmHWM") { return kb * 1024 }
        #if os(Linux)
        return Int(resourceUsage().ru_maxrss) * 1024
        #else
        return Int(resourceUsage().ru_maxrss)
        #endif
    }

    /// Resets the peak resident size where the system allows it. Returns whether it did.
    @discardableResult
    package static func resetPeak() -> Bool {
        #if os(Linux)
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
        #else
        return false
        #endif
    }

    private static func resourceUsage() -> rusage {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return usage
    }

    /// A `kB` field of `/proc/self/status`, or nil where there is none.
    private static func statusKilobytes(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.dropFirst(name.count + 1).filter(\.isNumber))
        }
        return nil
    }
}

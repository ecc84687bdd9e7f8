import Foundation

/// The process's resident memory, read from the kernel, for `zoetrope bench`.
///
/// On Linux the peak (`VmHWM`) can be reset through `/proc/self/clear_refs`, so each
/// benchmarked file reports its own peak rather than the largest seen so far.
enum ProcessMemory {
    /// Resets the peak resident size where the system allows it. Returns whether it did.
    @discardableResult
    static func resetPeak() -> Bool {
        #if os(Linux)
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do { try handle.write(contentsOf: Data("5".utf8)) } catch { return false }
        return true
        #else
        return false
        #endif
    }

    /// The peak resident size in bytes since start (or since the last successful reset).
    static func peakResidentBytes() -> Int {
        #if os(Linux)
        if let kb = statusField("VmHWM") { return kb * 1024 }
        #endif
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)
        #endif
    }

    /// A `kB` field of `/proc/self/status`.
    private static func statusField(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
            return Int(digits)
        }
        return nil
    }
}

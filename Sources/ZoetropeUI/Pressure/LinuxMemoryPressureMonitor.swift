import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Watches the kernel's memory pressure-stall information (Linux 4.20+, `/proc/pressure/memory`)
/// and sends the matching level to a `MemoryPressureSignal`. Optional: start one if the
/// application has no better source of memory warnings.
public final class LinuxMemoryPressureMonitor: Sendable {
    /// Where the kernel publishes memory pressure.
    public static let defaultPath = "/proc/pressure/memory"

    /// The pressure file read.
    package let path: String
    /// The signal that receives the levels.
    package let signal: MemoryPressureSignal
    /// "some avg10" at or above this is `.warning`.
    package let warningPercent: Double
    /// "full avg10" at or above this (or "some" at twice the warning) is `.critical`.
    package let criticalPercent: Double
    private let running = Locked(false)

    /// A monitor of `path` feeding `signal`, with the thresholds in percent of stalled time.
    public init(
        path: String = LinuxMemoryPressureMonitor.defaultPath, signal: MemoryPressureSignal = .shared,
        warningPercent: Double = 10, criticalPercent: Double = 5
    ) {
        self.path = path
        self.signal = signal
        self.warningPercent = warningPercent
        self.criticalPercent = criticalPercent
    }

    /// Whether the kernel offers pressure information here.
    public var isAvailable: Bool { FileManager.default.isReadableFile(atPath: path) }

    /// The level a sample means.
    package func level(for sample: PressureStallSample) -> MemoryPressureLevel {
        if sample.fullAvg10 >= criticalPercent || sample.someAvg10 >= warningPercent * 2 { return .critical }
        if sample.someAvg10 >= warningPercent { return .warning }
        return .normal
    }

    /// Reads the file once and sends the level. Returns it, or nil when unreadable.
    @discardableResult
    public func poll() -> MemoryPressureLevel? {
        guard let data = FileManager.default.contents(atPath: path),
            let sample = PressureStallSample(parsing: String(decoding: data, as: UTF8.self))
        else { return nil }
        let level = level(for: sample)
        signal.send(level)
        return level
    }

    /// Polls every `interval` on a background thread until `stop()`. Returns false when
    /// the file is missing or the monitor already runs.
    @discardableResult
    public func start(interval: Duration = .seconds(2)) -> Bool {
        guard isAvailable else { return false }
        let started = running.withLock { r -> Bool in
            if r { return false }
            r = true
            return true
        }
        guard started else { return false }
        let pause = max(interval, .milliseconds(50))
        NativeThread.detach(name: "zoetrope.psi") { [self] in
            while self.running.withLock({ $0 }) {
                self.poll()
                NativeThread.sleep(pause)
            }
        }
        return true
    }

    /// Stops polling (after the current sleep).
    public func stop() { running.withLock { $0 = false } }
}

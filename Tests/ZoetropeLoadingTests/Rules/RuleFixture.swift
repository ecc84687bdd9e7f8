import Foundation
import Zoetrope
import ZoetropeCodecs
import ZoetropeTestSupport

/// A loader over a `ScriptedTransport`, with a clock the test moves.
enum RuleFixture {
    static let base = URL(string: "http://rules.invalid/")!

    static func url(_ path: String) -> URL { base.appendingPathComponent(path) }

    static func loader(
        _ transport: ScriptedTransport, disk: DiskCache.Configuration? = nil, clock: RuleClock = RuleClock(),
        _ configure: (inout AnimatedImageLoader.Configuration) -> Void = { _ in }
    ) -> AnimatedImageLoader {
        var configuration = AnimatedImageLoader.Configuration(
            memoryCacheLimit: 64 << 20, diskCache: disk, registry: LoadingFixture.registry(), memoryPressure: nil)
        configuration.transport = transport
        configuration.clock = { clock.now }
        configure(&configuration)
        return AnimatedImageLoader(configuration: configuration)
    }
}

/// Seconds since 1970 that a test sets: freshness without waiting.
final class RuleClock: Sendable {
    private let seconds = Locked(1_800_000_000.0)
    var now: Double { seconds.withLock { $0 } }
    func advance(by interval: Double) { seconds.withLock { $0 += interval } }
}

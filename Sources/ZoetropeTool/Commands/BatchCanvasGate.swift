import Zoetrope

/// Admits the conversions of a batch while the memory they hold stays bounded: each counts
/// four canvases of its output (the most a conversion holds, Docs/Benchmarks.md), and
/// conversions run together while those add up to at most `limit` bytes. One conversion is
/// always admitted, however big, so a batch never waits on itself.
///
/// @unchecked Sendable: `running` and `held` are read and written only while `condition` is
/// locked.
final class BatchCanvasGate: @unchecked Sendable {
    /// Canvas bytes the running conversions may hold together.
    let limit: Int
    private let condition = ThreadCondition()
    private var running = 0, held = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// What a conversion to `size` at `depth` counts: four canvases.
    static func cost(of size: PixelSize, depth: ChannelDepth) -> Int {
        let (bytes, overflow) = (size.frameByteCount(depth: depth) ?? .max).multipliedReportingOverflow(by: 4)
        return overflow ? .max : bytes
    }

    /// Whether a conversion costing `cost` may start beside `running` others holding `held`.
    static func admits(running: Int, held: Int, cost: Int, limit: Int) -> Bool {
        running == 0 || (cost <= limit && held <= limit - cost)
    }

    /// Waits until a conversion costing `cost` may start, and counts it.
    func enter(_ cost: Int) {
        condition.lock()
        while !BatchCanvasGate.admits(running: running, held: held, cost: cost, limit: limit) { condition.wait() }
        running += 1
        held = held > Int.max - cost ? Int.max : held + cost
        condition.unlock()
    }

    /// Counts a conversion costing `cost` as finished, and wakes the ones waiting.
    func leave(_ cost: Int) {
        condition.lock()
        running -= 1
        held = running == 0 ? 0 : max(0, held - cost)
        condition.broadcast()
        condition.unlock()
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Zoetrope

// zoetrope-player-bench [--seconds S] [--players 1,8,32,64] [--hz 60] [--workers N]
// Many players of the built-in demo (756×304, 100 × 50 ms) on one 60 Hz TimerClock,
// decoding on a shared bounded worker pool: of one image (shared frame cache) and of
// distinct images (each player decodes its own frames, one ahead).

struct Options {
    var seconds = 10.0
    var counts = [1, 8, 32, 64]
    var hertz = 60
    var workers = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
}

func parseOptions() -> Options {
    var o = Options()
    var args = Array(CommandLine.arguments.dropFirst())
    while args.count >= 2 {
        let name = args.removeFirst()
        let value = args.removeFirst()
        switch name {
        case "--seconds": o.seconds = Double(value) ?? o.seconds
        case "--players": o.counts = value.split(separator: ",").compactMap { Int($0) }
        case "--hz": o.hertz = Int(value) ?? o.hertz
        case "--workers": o.workers = Int(value) ?? o.workers
        default: fatalError("unknown option \(name)")
        }
    }
    return o
}

/// `value` right-aligned (or left-aligned) in `width` columns, as "%*d" / "%-*d".
func pad(_ value: some CustomStringConvertible, _ width: Int, left: Bool = false) -> String {
    let text = value.description
    let fill = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + fill : fill + text
}

/// `value` with `digits` decimals, as "%.*f" for the non-negative magnitudes printed here.
func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite, value >= 0, value < 1e15 else { return "\(value)" }
    var scale: UInt64 = 1
    for _ in 0..<digits { scale *= 10 }
    let n = UInt64((value * Double(scale)).rounded())
    let fraction = String(n % scale)
    return String(n / scale) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
}

func row(_ shared: Bool, _ n: Int, _ r: PlayerBench.Result, seconds: Double) -> String {
    let cpuMs: Double = r.cpuSecondsPerPlayer * 1000 / seconds
    let pixelMiB: Double = Double(r.peakPixelBytes) / 1_048_576
    let rssMiB: Double = Double(r.peakResidentBytes) / 1_048_576
    var fields: [String] = []
    fields.append(shared ? "one     " : "distinct")
    fields.append(pad(n, 7))
    fields.append(pad(fixed(cpuMs, 2), 15))
    fields.append(pad(r.framesShown, 7) + "/" + pad(r.expectedFrames, 7, left: true))
    fields.append(pad(r.lateTicks, 10))
    fields.append(pad(r.stallEpisodes, 6))
    fields.append(pad(r.clockLateTicks, 9) + "/" + pad(r.clockDroppedTicks, 8, left: true))
    fields.append(pad(fixed(r.decodesPerFramePerLoop, 2), 18))
    fields.append(pad(fixed(pixelMiB, 1), 15))
    fields.append(pad(fixed(rssMiB, 1), 12))
    fields.append(pad(r.threads, 7))
    return fields.joined(separator: "  ")
}

func main() throws {
    let o = parseOptions()
    let cores = ProcessInfo.processInfo.activeProcessorCount
    print("players of the demo at \(o.hertz) Hz on a TimerClock for \(o.seconds) s, \(o.workers) decode workers, \(cores) cores")
    print("image     players  cpu ms/player/s  shown/expected   late ticks  stalls  clock late/dropped  decodes/frame/loop  peak pixels MiB  peak RSS MiB  threads")
    for shared in [true, false] {
        for n in o.counts {
            let bench = PlayerBench(players: n, sharedImage: shared, seconds: o.seconds, hertz: o.hertz, workers: o.workers)
            let r = try bench.run()
            print(row(shared, n, r, seconds: o.seconds))
        }
    }
}

try main()

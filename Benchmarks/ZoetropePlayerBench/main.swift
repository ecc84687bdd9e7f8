import Foundation
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

func row(_ shared: Bool, _ n: Int, _ r: PlayerBench.Result, seconds: Double) -> String {
    let cpuMs: Double = r.cpuSecondsPerPlayer * 1000 / seconds
    let pixelMiB: Double = Double(r.peakPixelBytes) / 1_048_576
    let rssMiB: Double = Double(r.peakResidentBytes) / 1_048_576
    var fields: [String] = []
    fields.append(shared ? "one     " : "distinct")
    fields.append(String(format: "%7d", n))
    fields.append(String(format: "%15.2f", cpuMs))
    fields.append(String(format: "%7d/%-7d", r.framesShown, r.expectedFrames))
    fields.append(String(format: "%10d", r.lateTicks))
    fields.append(String(format: "%6d", r.stallEpisodes))
    fields.append(String(format: "%9d/%-8d", r.clockLateTicks, r.clockDroppedTicks))
    fields.append(String(format: "%18.2f", r.decodesPerFramePerLoop))
    fields.append(String(format: "%15.1f", pixelMiB))
    fields.append(String(format: "%12.1f", rssMiB))
    fields.append(String(format: "%7d", r.threads))
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

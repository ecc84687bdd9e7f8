// Playing an animation while it downloads: the bytes of FILE arrive BYTES at a time, one
// piece every 10 ms, into an incremental session; `AnimationPlayer(incrementalSource:)`
// plays the frames that have arrived and stalls at the download edge, never looping back
// to frame 0 before the file is complete. A `ManualClock` ticked every 10 ms and a
// `SimulatedDecodeExecutor` make the output the same on every run.
// Usage: PlayWhileDownloading FILE BYTES
import Foundation
import ZoetropeCodecs
import ZoetropeTesting

let arguments = CommandLine.arguments
guard arguments.count == 3, let perTick = Int(arguments[2]), perTick > 0 else {
    FileHandle.standardError.write(Data("usage: PlayWhileDownloading FILE BYTES\n".utf8))
    exit(2)
}
let file = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
CoderRegistry.shared.registerBuiltInCoders()

// The first pieces choose the coder, as a download's first bytes would: nil means "read more".
var received = 0
var opened: (any IncrementalFrameSource)?
while opened == nil, received < file.count {
    received = min(file.count, received + perTick)
    opened = try CoderRegistry.shared.makeIncrementalSource(prefix: file.prefix(received))
}
guard let session = opened else {
    print("no coder can tell the format from the \(file.count) bytes")
    exit(1)
}
let clock = ManualClock()
let decoder = SimulatedDecodeExecutor()
let attachment = decoder.attach(to: clock)
let player = AnimationPlayer(incrementalSource: session, clock: clock,
                             configuration: PlayerConfiguration(executor: decoder, memoryPressure: nil))
let display = HeadlessDisplay()
display.setAnimation(player)

/// What the player said, printed with the time and how much had arrived.
final class Log: Sendable {
    let lines = Locked<[String]>([])
}
let log = Log()
let now = Locked<Int64>(0)
let observation = player.observe { event in
    let t = now.withLock { $0 } / 1_000_000
    let arrived = session.snapshot.frameCount
    switch event {
    case .frameShown(let i): log.lines.withLock { $0.append("t=\(t) ms: frame \(i) (\(arrived) arrived)") }
    case .stalled(let i): log.lines.withLock { $0.append("t=\(t) ms: waiting for frame \(i)") }
    case .loopCompleted(let n): log.lines.withLock { $0.append("t=\(t) ms: play \(n) completed") }
    case .finished: log.lines.withLock { $0.append("t=\(t) ms: finished") }
    case .decodeFailed(let i, let error): log.lines.withLock { $0.append("t=\(t) ms: frame \(i) failed: \(error)") }
    case .displayReleased: log.lines.withLock { $0.append("t=\(t) ms: display released") }
    }
}

player.play()
var t: Int64 = 0
while player.state == .playing, t < 10_000_000_000 {
    if received < file.count {
        let next = min(file.count, received + perTick)
        try session.append(file[received..<next])
        received = next
        if received == file.count {
            let info = try session.finish()
            log.lines.withLock { $0.append("t=\(t / 1_000_000) ms: all \(file.count) bytes in, \(info.frameCount) frames") }
        }
    }
    now.withLock { $0 = t }
    clock.tick(atNanoseconds: t)
    t += 10_000_000
}
let lines = log.lines.withLock { $0 }
for line in lines { print(line) }
let stalls = lines.filter { $0.contains("waiting for frame") }.count  // one `.stalled` event per stall
print("state \(player.state), plays completed \(player.playsCompleted), stalls \(stalls)")
observation.cancel()
attachment.cancel()

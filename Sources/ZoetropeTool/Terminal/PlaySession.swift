import Foundation
import Zoetrope

/// One run of `zoetrope play`: a player on the wall clock showing on a `TerminalDisplay`,
/// and the loop that answers keys, signals and resizes until the user quits (in a
/// terminal) or the animation finishes (otherwise).
struct PlaySession {
    /// What is played: a whole file, or one still arriving on standard input.
    enum Media {
        case whole(any FrameSource)
        /// A session the run feeds from standard input on a thread of its own while it plays.
        case arriving(any IncrementalFrameSource, StandardInputReader)
    }

    let media: Media
    let configuration: PlayerConfiguration
    let interactive: Bool
    let width: Int?
    let color: Bool

    /// What observers saw, read by the loop.
    private final class Outcome: Sendable {
        let state = Locked<(finished: Bool, failure: String?)>((false, nil))
    }

    func run(name: String, out: inout Output) -> Int32 {
        // The core's timer clock, fitted to the animation, at most 60 redraws a second.
        let clock = TimerClock(rate: .fitting(maxHertz: 60))
        let origin = ContinuousClock.now
        let now: @Sendable () -> Int64 = { (ContinuousClock.now - origin).wholeNanoseconds }
        let size = interactive ? TerminalSession.size() : (columns: 80, rows: 24)
        let display = TerminalDisplay(
            columns: size.columns, rows: size.rows, width: width, color: color,
            draws: interactive, now: now)
        let player: AnimationPlayer
        let outcome = Outcome()
        var feeder: Thread?
        switch media {
        case .whole(let source):
            player = AnimationPlayer(source: source, clock: clock, display: display, configuration: configuration)
        case .arriving(let session, let reader):
            player = AnimationPlayer(incrementalSource: session, clock: clock, display: display, configuration: configuration)
            // The rest of standard input, appended as it arrives; the player takes each new
            // frame at its next tick. A session that fails ends playback as a failed decode.
            feeder = Thread {
                do {
                    try StandardInputSource.feed(session, from: reader)
                    _ = try StandardInputSource.finish(session, name: reader.name)
                } catch {
                    let message = (error as? ToolError)?.message ?? "\(error)"
                    outcome.state.withLock { $0.failure = $0.failure ?? message }
                }
            }
            feeder?.start()
        }
        let observation = player.observe { event in
            switch event {
            case .finished: outcome.state.withLock { $0.finished = true }
            case .decodeFailed(let index, let error):
                outcome.state.withLock { $0.failure = $0.failure ?? "frame \(index): \(error)" }
            default: break
            }
        }
        defer { observation.cancel() }
        _ = feeder

        let session = interactive ? TerminalSession() : nil
        let start = now()
        player.play()
        var status: Int32 = 0
        loop: while true {
            let keys = session.map { TerminalKey.parse($0.readKeys(timeoutMilliseconds: 50)) } ?? []
            if session == nil { usleep(20_000) }
            for key in keys {
                switch key {
                case .quit: break loop
                case .togglePause:
                    player.state == .playing ? player.pause() : player.play()
                case .stepForward, .stepBackward:
                    if player.state == .playing { player.pause() }
                    let n = player.info.frameCount
                    let i = player.currentFrameIndex ?? 0
                    if n > 0 { player.seek(toFrame: (i + (key == .stepForward ? 1 : n - 1)) % n) }
                case .faster, .slower:
                    let speeds = PlayCommand.speeds
                    let i = speeds.lastIndex { $0 <= player.rate + 1e-9 } ?? 0
                    player.setRate(speeds[key == .faster ? min(speeds.count - 1, i + 1) : max(0, i - 1)])
                }
            }
            let signals = pendingSignals.exchange(0, ordering: .relaxed)
            if signals & (1 << Int(SIGINT)) != 0 { status = 130; break loop }
            if signals & (1 << Int(SIGTERM)) != 0 { status = 143; break loop }
            if signals & (1 << Int(SIGWINCH)) != 0 {
                let s = TerminalSession.size()
                display.resize(columns: s.columns, rows: s.rows)
            }
            let (finished, failure) = outcome.state.withLock { $0 }
            if session != nil {
                display.setStatus(
                    statusLine(
                        player: player, display: display, failure: failure,
                        columns: TerminalSession.size().columns))
                continue
            }
            // Not a terminal: stop once the animation is over, or when it shows only its poster.
            if let failure {
                // A failure already naming standard input is printed as it is.
                out.error("zoetrope: \(failure.hasPrefix(name + ": ") ? failure : "\(name): \(failure)")")
                status = 1
                break loop
            }
            if finished || (player.state == .showingPoster && display.framesShown > 0) { break loop }
        }
        let seconds = Double(now() - start) / 1e9
        let diagnostics = player.diagnostics
        let plays = player.playsCompleted
        let state = player.state
        player.prepareForReuse()
        clock.invalidate()
        display.close()
        session?.restore()
        if !interactive && status == 0 {
            out.print(
                "\(name): \(state == .showingPoster ? "showed the poster" : "played \(plays) time\(plays == 1 ? "" : "s")"), "
                    + "\(display.framesShown) frame\(display.framesShown == 1 ? "" : "s") shown in \(Formatting.format3(seconds)) s "
                    + "(\(configuration.bufferPolicy.name), \(Formatting.bytes(diagnostics.peakBytesHeld)) peak held)")
        }
        return status
    }

    /// "frame 12/100  play 1/∞  20 fps  ×1  one-ahead  2.6 MiB held  paused", then the keys
    /// when they fit in `columns`.
    func statusLine(player: AnimationPlayer, display: TerminalDisplay, failure: String?, columns: Int) -> String {
        let info = player.info
        let loops = configuration.loopCount ?? info.loopCount
        let total = loops.finitePlays.map(String.init) ?? "∞"
        let play = min(player.playsCompleted + 1, loops.finitePlays ?? .max)
        let state = player.state
        let word: String
        switch state {
        case .paused: word = "paused"
        case .finished: word = "finished"
        case .showingPoster: word = "poster (reduce motion)"
        case .failed: word = "failed: \(failure ?? "decode error")"
        default: word = ""
        }
        let fps = Formatting.format1(display.effectiveFPS)
        let held = AuditCommand.shortBytes(player.diagnostics.bytesHeld)
        let rate = player.rate == player.rate.rounded() ? "\(Int(player.rate))" : Formatting.format3(player.rate)
        var parts = [
            "frame \((player.currentFrameIndex ?? 0) + 1)/\(info.frameCount)", "play \(play)/\(total)",
            "\(fps) fps", "×\(rate)", player.bufferPolicy.name, "\(held) held",
        ]
        if !word.isEmpty { parts.append(word) }
        let line = parts.joined(separator: "  ")
        let keys = "  [space ←→ +− q]"
        return line.count + keys.count < columns ? line + keys : line
    }
}

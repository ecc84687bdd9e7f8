import Zoetrope

/// Decodes every frame of an input to a full canvas, pass after pass, until a minimum
/// time has passed, the way a player that keeps nothing would.
///
/// Each pass starts a new `FrameSource` from the encoded bytes, so the parse cost is
/// counted as it is for the C reference decoders, and the output buffer is reused, so
/// the number is decoding and compositing, not allocation.
struct DecodeBenchmark {
    /// The timed run lasts at least this long (and always completes one pass).
    var minimumSeconds: Double = 1
    /// Called after each pass with the fraction of the minimum time spent (0…1).
    var progress: ((Double) -> Void)?

    func run(_ input: ImageInput, registry: CoderRegistry) throws -> BenchResult {
        let clock = ContinuousClock()
        ProcessMemory.resetPeak()
        var buffer = PixelBuffer()

        // Time to first frame: a fresh session, header parsing included.
        let firstStart = clock.now
        let first = try input.makeFrameSource(registry: registry)
        let info = first.info
        guard info.frameCount > 0 else {
            throw ToolError("\(input.name): \(info.truncation?.description ?? "the image has no frames")")
        }
        do {
            try first.decodeFrame(at: 0, into: &buffer)
        } catch {
            throw ToolError("\(input.name): \(error)")
        }
        let firstFrameSeconds = Self.seconds(clock.now - firstStart)

        // Frames that decode: stop a pass at the first failure, and report it.
        var usable = info.frameCount
        var warning = info.truncation?.description
        var framesDecoded = 0, passes = 0
        var sessionBytes = first.retainedByteCount
        let start = clock.now
        var elapsed = 0.0
        repeat {
            let source = try input.makeFrameSource(registry: registry)
            for i in 0..<usable {
                do {
                    try source.decodeFrame(at: i, into: &buffer)
                } catch {
                    usable = i
                    warning = "\(error)"
                    break
                }
                framesDecoded += 1
            }
            passes += 1
            sessionBytes = max(sessionBytes, source.retainedByteCount)
            elapsed = Self.seconds(clock.now - start)
            progress?(min(1, elapsed / max(minimumSeconds, 1e-9)))
        } while elapsed < minimumSeconds && usable > 0

        return BenchResult(
            name: input.name, info: info, framesDecoded: framesDecoded, passes: passes,
            seconds: elapsed, firstFrameSeconds: firstFrameSeconds,
            peakMemoryBytes: ProcessMemory.peakResidentBytes(), sessionBytes: sessionBytes,
            bytesHeld: Self.bytesHeld(info: info, usableFrames: max(usable, 1)), warning: warning)
    }

    /// Decoded frame bytes each buffer policy keeps at its fullest: the displayed frame
    /// plus what it decodes ahead or keeps (`width × height × 4` per frame).
    static func bytesHeld(info: AnimationInfo, usableFrames: Int) -> [(policy: String, bytes: Int)] {
        let frame = info.frameByteCount
        func frames(_ n: Int) -> Int {
            let (b, o) = frame.multipliedReportingOverflow(by: min(n, usableFrames))
            return o ? .max : b
        }
        return [
            ("oneAhead", frames(2)),
            ("fourAhead", frames(5)),
            ("keepAll", frames(usableFrames)),
        ]
    }

    static func seconds(_ d: Duration) -> Double {
        let c = d.components
        return Double(c.seconds) + Double(c.attoseconds) / 1e18
    }
}

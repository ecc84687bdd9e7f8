import Zoetrope
import ZoetropeProcessStats

/// Decodes every frame of an input to a full canvas, pass after pass, until a minimum
/// time has passed, on the bulk path (`BulkFrameDecoder`) that exporting and converting use.
///
/// Each pass starts a new `FrameSource` from the encoded bytes, so the parse cost is
/// counted as it is for the C reference decoders, and the output buffer is reused, so
/// the number is decoding and compositing, not allocation.
struct DecodeBenchmark {
    /// The timed run lasts at least this long (and always completes one pass).
    var minimumSeconds: Double = 1
    /// Whether to play the input once under each of `policies` and report the bytes held.
    var measuresPolicies = true
    /// Threads for the timed passes (nil: the cores the process may use), as `BulkFrameDecoder`
    /// takes them and as the sources' `DecodingOptions.threadCount` (libavif's threads, colour
    /// conversion in bands), so that one thread is one thread.
    var threads: Int?
    /// Called after each pass with the fraction of the minimum time spent (0…1).
    var progress: ((Double) -> Void)?

    func run(_ input: ImageInput, registry: CoderRegistry) throws -> BenchResult {
        let clock = ContinuousClock()
        ProcessStats.resetPeak()
        var buffer = PixelBuffer()

        // Time to first frame: a fresh session, header parsing included.
        let firstStart = clock.now
        // Frame 0 before the info, as a viewer shows it: a big GIF's frame count waits for
        // the rest of the file to be scanned, which frame 0 does not need.
        let options = DecodingOptions(threadCount: threads)
        let first = try input.makeFrameSource(registry: registry, options: options)
        do {
            try first.decodeFrame(at: 0, into: &buffer)
        } catch {
            if first.info.frameCount == 0 {
                throw ToolError("\(input.name): \(first.info.truncation?.description ?? "the image has no frames")")
            }
            throw ToolError("\(input.name): \(error)")
        }
        let firstFrameSeconds = Self.seconds(clock.now - firstStart)
        let info = first.info

        // Frames that decode: stop a pass at the first failure, and report it.
        var usable = info.frameCount
        var warning = info.truncation?.description
        var framesDecoded = 0, passes = 0, threadsUsed = 1
        var sessionBytes = first.retainedByteCount
        let start = clock.now
        var elapsed = 0.0
        repeat {
            let source = try input.makeFrameSource(registry: registry, options: options)
            // The bulk path, as `frames` and `convert` decode.
            let run = BulkFrameDecoder(source: source, frames: 0..<usable, threads: threads)
            threadsUsed = run.threadCount
            var decoded = 0
            do {
                while try run.nextFrame(into: &buffer) != nil { decoded += 1 }
            } catch {
                usable = decoded
                warning = "\(error)"
            }
            framesDecoded += decoded
            passes += 1
            sessionBytes = max(sessionBytes, source.retainedByteCount)
            elapsed = Self.seconds(clock.now - start)
            progress?(min(1, elapsed / max(minimumSeconds, 1e-9)))
        } while elapsed < minimumSeconds && usable > 0

        return BenchResult(
            name: input.name, info: info, framesDecoded: framesDecoded, passes: passes,
            seconds: elapsed, threads: threadsUsed, firstFrameSeconds: firstFrameSeconds,
            peakMemoryBytes: ProcessStats.peakResidentBytes(), sessionBytes: sessionBytes,
            bytesHeld: measuresPolicies ? try Self.bytesHeld(input, registry: registry) : [], warning: warning)
    }

    /// The buffer policies whose held bytes `bench` reports.
    static let policies: [any FrameBufferPolicy] = [
        AheadBufferPolicy(framesAhead: 1), AheadBufferPolicy(framesAhead: 4), KeepAllBufferPolicy(),
        MemoryBudgetBufferPolicy(budgetBytes: 64 << 20),
    ]

    /// The most bytes of decoded frames the real player holds during one play under each
    /// policy (poster, window, in-flight decode and pooled buffers), measured by playing the
    /// input on a simulated 60 Hz refresh with instant decodes, as `zoetrope trace` does.
    static func bytesHeld(_ input: ImageInput, registry: CoderRegistry) throws -> [(policy: String, bytes: Int)] {
        try policies.map { policy in
            var settings = TraceCommand.Settings()
            settings.policy = policy
            settings.loops = .once
            let trace = Trace.run(source: try input.makeFrameSource(registry: registry), settings: settings)
            return (policy.name, trace.diagnostics.peakBytesHeld)
        }
    }

    static func seconds(_ d: Duration) -> Double { d.secondsValue }
}

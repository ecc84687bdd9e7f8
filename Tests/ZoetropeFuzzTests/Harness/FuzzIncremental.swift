import Foundation

@testable import Zoetrope

/// The incremental path: the input fed in pieces to the session of the coder its content
/// picks (the five built-in coders) or of one given coder, every frame decoded as it is
/// reported (capped), then `finish()` and the frame past the end. Crashes, hangs and untyped errors are what it
/// finds; whether the session agrees with the whole file is `IncrementalFeed`'s job in the
/// tests (the known differences in when limit errors surface would make it a false alarm
/// here).
enum FuzzIncremental {
    static func run(_ data: Data) -> FuzzOutcome {
        guard let (coder, result) = FuzzHarness.registry.sniff(data), case .match = result,
            let incremental = coder as? any IncrementalDecoding
        else { return FuzzOutcome() }
        return run(data, coder: incremental)
    }

    /// One input through `coder`'s session, whatever its first bytes are.
    static func run(_ data: Data, coder incremental: any IncrementalDecoding) -> FuzzOutcome {
        var outcome = FuzzOutcome()
        let options = FuzzHarness.options(for: data)
        let session = incremental.makeIncrementalSource(options: options)
        outcome.opened = true
        // Small pieces for small inputs, at most about 48 for large ones.
        let step = max(1 + data.count % 13, data.count / 48)
        var buffer = PixelBuffer()
        var decodes = 0, known = 0, revision = 0, partialBytes = -1
        func note(_ error: any Error, _ what: String) {
            if let error = error as? AnimatedImageError {
                outcome.firstError = outcome.firstError ?? error
            } else {
                outcome.problem = outcome.problem ?? "\(what) threw \(type(of: error)): \(error)"
            }
        }
        func decode(_ index: Int, _ snapshot: IncrementalSnapshot) {
            guard decodes < FuzzHarness.frameCap else { return }
            decodes += 1
            do {
                try session.decodeFrame(at: index, into: &buffer)
                outcome.framesDecoded += 1
                if let canvas = snapshot.canvasSize, buffer.size != options.outputSize(forCanvas: canvas) {
                    outcome.problem = outcome.problem ?? "frame \(index) decoded as \(buffer.size) on a \(canvas) canvas"
                }
            } catch {
                note(error, "frame \(index)")
            }
        }
        var offset = 0
        while offset < data.count {
            let end = min(data.count, offset + step)
            do {
                let snapshot = try data[offset..<end].withUnsafeBytes { try session.append(contentsOf: $0) }
                if snapshot.revision != revision { revision = snapshot.revision; known = 0 }
                if snapshot.firstFrameIsPartial, snapshot.receivedByteCount != partialBytes {
                    partialBytes = snapshot.receivedByteCount
                    decode(0, snapshot)
                } else if snapshot.frameCount > known {
                    for i in known..<snapshot.frameCount { decode(i, snapshot) }
                    known = snapshot.frameCount
                }
            } catch {
                note(error, "append at \(offset)")
                break
            }
            offset = end
        }
        do {
            let info = try session.finish()
            outcome.frameCount = info.frameCount
            let snapshot = session.snapshot
            if revision != snapshot.revision { known = 0 }
            for i in known..<info.frameCount { decode(i, snapshot) }
            do {
                try session.decodeFrame(at: info.frameCount, into: &buffer)
                outcome.problem = outcome.problem ?? "frame \(info.frameCount) decoded past the \(info.frameCount) frames finish() reports"
            } catch {
                note(error, "frame \(info.frameCount)")
            }
        } catch {
            note(error, "finish()")
        }
        return outcome
    }
}

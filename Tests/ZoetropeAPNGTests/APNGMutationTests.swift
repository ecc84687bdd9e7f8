import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// Bad input never crashes: thousands of deterministic mutations of a small APNG (with
/// CRCs recomputed, so the damage reaches the APNG rules and libpng) decode or fail with
/// an `AnimatedImageError`.
@Suite struct APNGMutationTests {
    static func base() -> APNGWriter {
        APNGWriter.animation(
            width: 3, height: 2,
            frames: [
                .solid(width: 3, height: 2, Fixture.red),
                .solid(x: 1, width: 2, height: 2, [0, 255, 0, 128], disposeOp: 2, blendOp: 1),
                .solid(x: 0, y: 1, width: 1, height: 1, Fixture.blue, disposeOp: 1),
            ], plays: 2)
    }

    /// Decodes every frame, forwards and back; only `AnimatedImageError`s may come out.
    static func exercise(_ data: Data) -> Bool {
        do {
            let source = try APNGCoder().makeFrameSource(data: data, options: DecodingOptions(limits: Limits(maxWidth: 4096, maxHeight: 4096)))
            var buffer = PixelBuffer()
            for i in Array(0..<source.info.frameCount) + [0, source.info.frameCount - 1] {
                do { try source.decodeFrame(at: i, into: &buffer) } catch is AnimatedImageError { continue }
                guard buffer.size == source.info.canvasSize else { return false }
            }
            return true
        } catch is AnimatedImageError {
            return true
        } catch {
            return false
        }
    }

    @Test func mutatedChunkPayloadsNeverCrash() {
        var rng = SplitMix64(seed: 20_261_129)
        let base = APNGMutationTests.base()
        for round in 0..<1500 {
            var w = base
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let c = Int.random(in: 0..<w.chunks.count, using: &rng)
                guard !w.chunks[c].payload.isEmpty else { continue }
                let i = Int.random(in: 0..<w.chunks[c].payload.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: w.chunks[c].payload[i] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
                case 1: w.chunks[c].payload[i] = UInt8.random(in: 0...255, using: &rng)
                case 2: w.chunks[c].payload.removeSubrange(i...)
                default: w.chunks.swapAt(c, Int.random(in: 0..<w.chunks.count, using: &rng))
                }
            }
            #expect(APNGMutationTests.exercise(w.data), "round \(round)")
        }
    }

    @Test func truncatedAndBitFlippedFilesNeverCrash() {
        var rng = SplitMix64(seed: 7)
        let data = APNGMutationTests.base().data
        for length in 0...data.count {
            #expect(APNGMutationTests.exercise(data.prefix(length)), "prefix \(length)")
        }
        for round in 0..<1000 {
            var bytes = [UInt8](data)
            bytes[Int.random(in: 8..<bytes.count, using: &rng)] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            #expect(APNGMutationTests.exercise(Data(bytes)), "flip round \(round)")
        }
    }
}

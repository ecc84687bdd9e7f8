import Foundation

@testable import Zoetrope
@testable import ZoetropeAPNG
@testable import ZoetropeAVIF
@testable import ZoetropeGIF
@testable import ZoetropeWebP

/// The hand-written parsers on their own, so coverage guidance sees each of them without
/// the C library behind it. Each reads everything its result offers. The parsers throw
/// `AnimatedImageError` only (typed throws), so a trap is the only way to fail.
enum FuzzParsers {
    static func gifIndex(_ data: Data) -> FuzzOutcome {
        index(data) { bytes throws(AnimatedImageError) in
            let index = try GIFIndex.parse(bytes, limits: FuzzHarness.limits)
            _ = KeyFrameTable(index.placements, canvasSize: index.canvasSize)
            _ = (index.warnings, index.hasAlpha, index.loopCount)
            return (index.frames.count, index.truncation)
        }
    }

    static func apngChunks(_ data: Data) -> FuzzOutcome {
        index(data) { bytes throws(AnimatedImageError) in
            let index = try APNGChunkWalker.index(bytes, limits: FuzzHarness.limits)
            return (index.frames.count, index.truncation)
        }
    }

    /// Runs an index parser over the input: the frames it found and the break it recorded,
    /// or the error it threw.
    private static func index(
        _ data: Data,
        _ parse: (UnsafeRawBufferPointer) throws(AnimatedImageError) -> (frames: Int, truncation: AnimatedImageError?)
    ) -> FuzzOutcome {
        var outcome = FuzzOutcome()
        data.withUnsafeBytes { bytes in
            do throws(AnimatedImageError) {
                let parsed = try parse(bytes)
                outcome.opened = true
                outcome.frameCount = parsed.frames
                outcome.firstError = parsed.truncation
            } catch {
                outcome.firstError = error
            }
        }
        return outcome
    }

    /// The container parser on the whole input, then the edit-list parser on the input as
    /// an `elst` payload, with the track durations that reach each branch of the loop rule.
    static func avifContainer(_ data: Data) -> FuzzOutcome {
        var outcome = FuzzOutcome()
        data.withUnsafeBytes { bytes in
            do throws(AnimatedImageError) {
                let container = try AVIFIndex.parse(bytes)
                _ = container.tracksToHide
                _ = container.alphaTrack
                outcome.opened = true
                outcome.frameCount = container.colourTrack?.sampleCount ?? 0
                _ = try container.loopCount()
            } catch {
                outcome.firstError = outcome.firstError ?? error
            }
            do throws(AnimatedImageError) {
                let editList = try AVIFEditList.parse(bytes, range: 0..<bytes.count)
                for duration in [nil, 0, 1, UInt64.max, editList.segmentDurations.first ?? 7] {
                    _ = try? editList.loopCount(trackDuration: duration)
                }
            } catch {
                outcome.firstError = outcome.firstError ?? error
            }
        }
        return outcome
    }

    static func webpChunks(_ data: Data) -> FuzzOutcome {
        var outcome = FuzzOutcome()
        data.withUnsafeBytes { bytes in
            _ = WebPChunkScanner.riffEnd(bytes)
            _ = WebPChunkScanner.hasAnimChunk(bytes)
            let problem = WebPChunkScanner.diagnose(bytes)
            outcome.opened = true
            outcome.frameCount = problem.frameIndex ?? 0
            outcome.firstError = .invalidData(format: .webp, reason: problem.reason)
        }
        return outcome
    }
}

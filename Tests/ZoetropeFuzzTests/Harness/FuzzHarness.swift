import Foundation
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeGIF
import ZoetropeJPEG
import ZoetropeWebP

@testable import Zoetrope

/// The open / info / decode / seek path every coder target and the regression test run.
///
/// The limits are modest so that legal but huge inputs (a 16384×16384 canvas, 10,000
/// frames) are refused in microseconds instead of taking seconds per input: the fuzzer
/// then spends its time on the parsing and compositing code rather than on memset, and
/// libFuzzer's 10 s timeout and 2 GiB memory limit catch only real amplification bugs
/// (work or memory that the limits were supposed to bound but did not).
public enum FuzzHarness {
    /// Limits for fuzzing: canvases up to 1024 pixels a side and 2^18 pixels (512×512),
    /// 1,024 frames, 64 MiB per session, 2^24 composited pixels per play (64 frames of 512×512).
    public static let limits = Limits(
        maxWidth: 1024, maxHeight: 1024, maxCanvasPixels: 1 << 18,
        maxFrameCount: 1024, maxAllocationBytes: 64 << 20, maxPixelsPerPlay: 1 << 24)

    /// At most this many frames are decoded in order (the seek comes on top).
    public static let frameCap = 64

    /// The options an input decodes with, chosen by its length so every variant is reached
    /// (and an input always decodes the same way): straight or premultiplied alpha, 8 or 16
    /// bits per channel, full size or downsampled to fit 7×5; a first frame cut short shown
    /// or refused; the fuzz limits; one AVIF thread.
    public static func options(for data: Data) -> DecodingOptions {
        let variant = data.count % 16
        return DecodingOptions(
            pixelFormat: PixelFormat(alphaMode: variant & 1 == 0 ? .straight : .premultiplied, channelDepth: variant & 8 == 0 ? .eight : .sixteen),
            targetSize: variant & 2 == 0 ? nil : PixelSize(width: 7, height: 5),
            limits: limits, threadCount: 1, showsPartialFirstFrame: variant & 4 != 0)
    }

    /// The registry the `registry` target decodes through: the built-in coders.
    public static let registry = CoderRegistry(builtIn: [GIFCoder(), APNGCoder(), WebPCoder(), AVIFCoder(), JPEGCoder()])

    /// Opens `data` with `coder` and exercises the source.
    public static func exercise(_ data: Data, with coder: any AnimatedImageCoder) -> FuzzOutcome {
        exercise { try coder.makeFrameSource(data: data, options: options(for: data)) }
    }

    /// Opens `data` through `registry` (content picks the coder) and exercises the source.
    public static func exercise(_ data: Data, through registry: CoderRegistry) -> FuzzOutcome {
        let chosen = options(for: data)
        var outcome = exercise { try registry.makeFrameSource(data: data, options: chosen) }
        // The still-or-animated answer takes its own path for still images.
        do {
            _ = try registry.isAnimated(data, options: chosen)
        } catch let error as AnimatedImageError {
            outcome.firstError = outcome.firstError ?? error
        } catch {
            outcome.problem = outcome.problem ?? "isAnimated threw \(type(of: error)): \(error)"
        }
        return outcome
    }

    /// Reads everything `info` offers, decodes frames 0, 1, … (at most `frameCap`) into one
    /// reused buffer, seeks back to the middle of those frames, and asks for the frame past
    /// the end, which must throw.
    static func exercise(_ open: () throws -> any FrameSource) -> FuzzOutcome {
        var outcome = FuzzOutcome()
        let source: any FrameSource
        do {
            source = try open()
        } catch let error as AnimatedImageError {
            outcome.firstError = error
            return outcome
        } catch {
            outcome.problem = "opening threw \(type(of: error)): \(error)"
            return outcome
        }
        outcome.opened = true
        let info = source.info
        outcome.frameCount = info.frameCount
        // Everything a caller reads before decoding (`zoetrope info` prints these).
        _ = info.totalDuration
        _ = info.displayDurations()
        _ = info.allFramesByteCount
        _ = info.loopCount
        _ = info.hasAlpha
        _ = source.retainedByteCount
        let outputSize = source.outputSize

        var buffer = PixelBuffer()
        func decode(_ index: Int) {
            do {
                try source.decodeFrame(at: index, into: &buffer)
                outcome.framesDecoded += 1
                if buffer.size != outputSize || buffer.format != source.options.pixelFormat {
                    outcome.problem =
                        outcome.problem
                        ?? "frame \(index) decoded as \(buffer.size) \(buffer.format), the source promises \(outputSize) \(source.options.pixelFormat)"
                }
            } catch let error as AnimatedImageError {
                outcome.firstError = outcome.firstError ?? error
            } catch {
                outcome.problem = outcome.problem ?? "frame \(index) threw \(type(of: error)): \(error)"
            }
        }
        let count = min(info.frameCount, frameCap)
        for index in 0..<count { decode(index) }
        if count > 1 { decode(count / 2) }
        do {
            try source.decodeFrame(at: info.frameCount, into: &buffer)
            outcome.problem = outcome.problem ?? "frame \(info.frameCount) decoded past the \(info.frameCount) frames info reports"
        } catch is AnimatedImageError {
        } catch {
            outcome.problem = outcome.problem ?? "frame \(info.frameCount) threw \(type(of: error)): \(error)"
        }
        return outcome
    }
}

import Foundation
import ZoetropeEncoding

@testable import Zoetrope

/// The `convert` target: the input is a file of any format, opened through the built-in
/// coders (content picks the coder) and converted by `AnimationConversion` into the format
/// its length picks (GIF, APNG, lossless or lossy WebP, AVIF). Nothing may trap or throw
/// other than `AnimatedImageError`; when the conversion succeeds, the output must decode
/// to the frames that went into the writer, compared as the `encode` target compares
/// (`FuzzEncoding.compare`): canvas, frame count, durations, plays, pixels where exact.
///
/// Frames are converted at a small size (at most 48 pixels a side, 16 for AVIF, fewer
/// frames for AVIF), so an input costs the decoder's and the encoder's logic, not their
/// bulk work.
enum FuzzConversion {
    static func run(_ data: Data) -> FuzzOutcome {
        var outcome = FuzzOutcome()
        let format = FuzzEncoding.Format.allCases[data.count % FuzzEncoding.Format.allCases.count]
        var options = FuzzHarness.options(for: data)
        let side = format == .avif ? 16 : 48
        options.targetSize = options.targetSize ?? PixelSize(width: side, height: side)
        if format == .avif { options.limits.maxFrameCount = 8 }
        let quality: Int? =
            switch format {
            case .webpLossy: 50
            case .avif: data.count / 5 % 2 == 0 ? nil : 60
            default: nil
            }
        do {
            let source = try FuzzHarness.registry.makeFrameSource(data: data, options: options)
            outcome.opened = true
            let info = source.info
            outcome.frameCount = info.frameCount
            let writer = FuzzRecordingWriter(
                try FuzzEncoding.encoder(format).makeWriter(
                    canvasSize: source.outputSize, options: EncodingOptions(loopCount: info.loopCount, quality: quality)),
                canvasSize: source.outputSize)
            let (output, summary) = try AnimationConversion.run(source: source, writer: writer)
            let converted = FuzzEncoding.Animation(
                format: format, canvas: source.outputSize, frames: writer.frames,
                loopCount: info.loopCount, quality: quality)
            outcome.problem = check(summary, info: info, converted: converted, output: output)
        } catch let error as AnimatedImageError {
            outcome.firstError = error
        } catch {
            outcome.problem = "\(format) conversion threw \(type(of: error)): \(error)"
        }
        return outcome
    }

    static func check(
        _ summary: AnimationConversion.Summary, info: AnimationInfo,
        converted: FuzzEncoding.Animation, output: Data
    ) -> String? {
        if summary.frameCount != converted.frames.count {
            return "the summary counts \(summary.frameCount) frames, the writer got \(converted.frames.count)"
        }
        if summary.truncation == nil ? summary.frameCount != info.frameCount : summary.frameCount > info.frameCount {
            return "\(summary.frameCount) of \(info.frameCount) frames converted, truncation: \(summary.truncation.map { "\($0)" } ?? "none")"
        }
        if summary.outputByteCount != output.count { return "the summary counts \(summary.outputByteCount) bytes, the output has \(output.count)" }
        var decoded = FuzzOutcome()
        do {
            let source = try FuzzEncoding.coder(converted.format).makeFrameSource(data: output, options: DecodingOptions(threadCount: 1))
            if let problem = try FuzzEncoding.compare(converted, source, &decoded) {
                return "the \(converted.format) output: \(problem)"
            }
        } catch {
            return "the \(converted.format) output (\(output.count) bytes) does not decode: \(error)"
        }
        return nil
    }
}

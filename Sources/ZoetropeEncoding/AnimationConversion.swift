import Dispatch
import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Re-encodes an animation frame by frame: each frame of a `FrameSource` goes into an
/// `AnimatedImageWriter`, in order, with its raw duration.
///
/// Decoding and encoding overlap: while frame *i* is being encoded on the calling thread,
/// frame *i + 1* is decoded on a background queue, from a `BulkFrameDecoder` (GIF, PNG and
/// WebP frames' data decode a few frames further ahead on worker threads). At most two
/// decoded frames exist at a time, plus the bulk run's payloads in flight, so memory stays
/// bounded by two canvases, those payloads and the encoder's working set.
public enum AnimationConversion {
    /// The largest canvas (in RGBA bytes) for which the next frame decodes while the current
    /// one is encoded: beyond it a second decoded frame costs more memory than the overlap saves time.
    static let decodeAheadCanvasBytes = 64 << 20

    /// What a conversion did.
    public struct Summary: Sendable, Hashable {
        /// Frames written.
        public var frameCount: Int
        /// Bytes of the file written.
        public var outputByteCount: Int
        /// Set when the source ended early (a truncated file, or a frame that failed to
        /// decode after the first): the frames before it were converted.
        public var truncation: AnimatedImageError?
    }

    /// Feeds every frame of `source` into `writer` and finishes it. `progress` is called on
    /// the calling thread after each frame with (frames done, frame count).
    ///
    /// A source whose info records a truncation, or whose frame fails to decode after the
    /// first, converts the frames before the break and reports it in `Summary.truncation`;
    /// a decoding error at the first frame, or an encoder error, is thrown and no file
    /// results (the writer is not finished).
    public static func run(
        source: any FrameSource, writer: any AnimatedImageWriter,
        progress: ((Int, Int) -> Void)? = nil
    ) throws -> (data: Data, summary: Summary) {
        let fed = try feed(source: source, writer: writer, progress: progress)
        let data = try writer.finish()
        return (
            data,
            Summary(
                frameCount: fed.count, outputByteCount: data.count,
                truncation: fed.failure ?? source.info.truncation)
        )
    }

    /// The same conversion, finished into the file at `url` with the writer's
    /// `finish(to:)`: atomic, and never holding the whole output in memory when the writer
    /// keeps it in a temporary file as it goes.
    public static func run(
        source: any FrameSource, writer: any AnimatedImageWriter, to url: URL,
        progress: ((Int, Int) -> Void)? = nil
    ) throws -> Summary {
        let fed = try feed(source: source, writer: writer, progress: progress)
        try writer.finish(to: url)
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        return Summary(frameCount: fed.count, outputByteCount: size, truncation: fed.failure ?? source.info.truncation)
    }

    /// Whether every frame of `source` that decodes is fully opaque (and one does): at once
    /// when its info says it has no alpha, else by decoding the frames (on the bulk path),
    /// stopping at the first that is not. Conversions to an encoder that
    /// `storesAlphaSeparately` ask this first and set `EncodingOptions.framesAreOpaque`.
    package static func framesAreOpaque(_ source: any FrameSource) -> Bool {
        if source.info.hasAlpha == false { return source.info.frameCount > 0 }
        let run = BulkFrameDecoder(source: source)
        defer { run.cancel() }
        var pixels = PixelBuffer()
        var decoded = 0
        while true {
            do {
                guard try run.nextFrame(into: &pixels) != nil else { break }
            } catch {
                break  // the conversion stops here too
            }
            guard pixels.isOpaque else { return false }
            decoded += 1
        }
        return decoded > 0
    }

    /// Adds every frame, decoding frame i + 1 while frame i is encoded when a canvas takes
    /// at most 64 MiB (on the bulk path: GIF, PNG and WebP frames' data decode further ahead
    /// on worker threads); on larger canvases one frame after another, so the conversion
    /// holds one decoded frame beside the decoder's canvas and the encoder's own. Returns
    /// the frames added and the decoding error that ended the run early, if one did after
    /// frame 0.
    static func feed(
        source: any FrameSource, writer: any AnimatedImageWriter, progress: ((Int, Int) -> Void)?,
        decodeAheadCanvasBytes: Int = decodeAheadCanvasBytes
    ) throws -> (count: Int, failure: AnimatedImageError?) {
        let info = source.info
        let count = info.frameCount
        guard count > 0 else {
            throw info.truncation ?? AnimatedImageError.invalidArgument("the source has no frames")
        }
        let queue = DispatchQueue(label: "zoetrope.conversion.decode")
        let run = BulkFrameDecoder(source: source)
        defer { run.cancel() }
        let decodesAhead = (info.canvasSize.rgbaByteCount ?? .max) <= decodeAheadCanvasBytes
        var next = DecodedFrameSlot.start(index: 0, run: run, on: queue)
        for i in 0..<count {
            var pixels: PixelBuffer
            do {
                pixels = try next.wait()
            } catch let error as AnimatedImageError where i > 0 {
                return (i, error)
            }
            if decodesAhead, i + 1 < count { next = DecodedFrameSlot.start(index: i + 1, run: run, on: queue) }
            try writer.add(EncodingFrame(pixels: pixels, duration: info.frameDurations[i]))
            progress?(i + 1, count)
            if !decodesAhead, i + 1 < count {
                pixels = PixelBuffer()  // freed before the next frame is decoded
                next = DecodedFrameSlot.start(index: i + 1, run: run, on: queue)
            }
        }
        return (count, nil)
    }
}

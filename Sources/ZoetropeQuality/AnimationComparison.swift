import Zoetrope

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Two animations compared frame by frame on their composited canvases, and timeline by
/// timeline: canvas, frame count, plays, raw and displayed durations, and for every frame
/// both have, the largest channel difference, the differing pixels, the PSNR and the
/// perceptual SSIMULACRA2 score.
///
/// Any two sources compare, whatever their formats: a GIF and the WebP converted from it,
/// an APNG and an AVIF. Frames are compared as straight-alpha RGBA8, a pixel fully
/// transparent in both counting as equal whatever its colour channels hold. When the
/// canvases differ no pixel is compared; when the frame counts differ, the frames both
/// have are. `differences(tolerance:)` says what differs, `isEqual(tolerance:)` whether
/// nothing does.
///
/// ```swift
/// let comparison = try AnimationComparison(original, converted)
/// print(comparison.identicalFrameCount, comparison.maxChannelDifference, comparison.differences())
/// ```
public struct AnimationComparison: Hashable, Sendable {
    /// The first animation's info.
    public let first: AnimationInfo
    /// The second animation's info.
    public let second: AnimationInfo
    /// The first animation's displayed durations (after the delay policy).
    public let firstDisplayedDurations: [FrameDuration]
    /// The second animation's displayed durations.
    public let secondDisplayedDurations: [FrameDuration]
    /// Every frame both animations have, in order (none when the canvases differ).
    public let frames: [FrameComparison]

    /// Decodes both sources frame by frame, in order, and compares them. Each frame is
    /// decoded at the source's `outputSize` (compare sources opened at full size) and
    /// compared straight at 8 bits: a premultiplied frame is unpremultiplied first, an RGBA16
    /// one rounded to RGBA8. Holds two frames
    /// at a time. `perceptual` false leaves SSIMULACRA2 out, which costs several times a
    /// frame's decoding for every frame that differs (Docs/Benchmarks.md). Throws what
    /// decoding throws.
    public init(_ first: any FrameSource, _ second: any FrameSource, delayPolicy: DelayPolicy = .default, perceptual: Bool = true) throws {
        self.first = first.info
        self.second = second.info
        firstDisplayedDurations = first.info.displayDurations(delayPolicy)
        secondDisplayedDurations = second.info.displayDurations(delayPolicy)
        guard first.info.canvasSize == second.info.canvasSize, first.outputSize == second.outputSize else {
            frames = []
            return
        }
        var a = PixelBuffer(), b = PixelBuffer(), roundedA = PixelBuffer(), roundedB = PixelBuffer()
        var frames: [FrameComparison] = []
        for index in 0..<min(first.info.frameCount, second.info.frameCount) {
            try first.decodeFrame(at: index, into: &a)
            try second.decodeFrame(at: index, into: &b)
            a.unpremultiplyAlpha()
            b.unpremultiplyAlpha()
            // RGBA16 sources compare at 8 bits, as the metrics are defined.
            let a = Self.eightBit(a, rounded: &roundedA), b = Self.eightBit(b, rounded: &roundedB)
            let m = FrameComparison.measure(a, b)
            // Identical frames score 100 without the work (the metric gives exactly that).
            let score: Double? =
                !perceptual || a.width < 8 || a.height < 8
                ? nil
                : m.maxChannelDifference == 0
                    ? 100 : SSIMULACRA2.score(reference: a.packedBytes, distorted: b.packedBytes, width: a.width, height: a.height)
            frames.append(
                FrameComparison(
                    index: index, maxChannelDifference: m.maxChannelDifference, differingPixelCount: m.differingPixelCount,
                    squaredError: m.squaredError, sampleCount: m.sampleCount,
                    durations: [first.info.frameDurations[index], second.info.frameDurations[index]],
                    displayedDurations: [firstDisplayedDurations[index], secondDisplayedDurations[index]], ssimulacra2: score))
        }
        self.frames = frames
    }

    /// Compares two images, each decoded from its bytes again at full size in straight alpha
    /// (the images' own decoding options otherwise).
    public init(_ first: AnimatedImage, _ second: AnimatedImage, delayPolicy: DelayPolicy = .default, perceptual: Bool = true) throws {
        func source(_ image: AnimatedImage) throws -> any FrameSource {
            var options = image.options
            options.targetSize = nil
            options.pixelFormat = .rgba8
            return try image.makeFrameSource(options: options)
        }
        try self.init(source(first), source(second), delayPolicy: delayPolicy, perceptual: perceptual)
    }

    /// `frame` at 8 bits per channel: itself, or rounded into `rounded`, whose storage is
    /// kept from frame to frame.
    private static func eightBit(_ frame: PixelBuffer, rounded: inout PixelBuffer) -> PixelBuffer {
        guard frame.format.channelDepth == .sixteen else { return frame }
        frame.convert(to: .eight, placedAt: PixelRect(x: 0, y: 0, width: frame.width, height: frame.height), into: &rounded)
        return rounded
    }

    /// How many frames were compared.
    public var comparedFrameCount: Int { frames.count }

    /// How many compared frames are identical.
    public var identicalFrameCount: Int { frames.count { $0.isIdentical } }

    /// The largest channel difference over every compared frame (0 when none was compared).
    public var maxChannelDifference: Int { frames.map(\.maxChannelDifference).max() ?? 0 }

    /// The PSNR in decibels of all compared frames pooled (their squared errors summed, then
    /// divided by every sample): `+infinity` when they are identical, nil when no frame was compared.
    public var pooledPSNR: Double? {
        guard !frames.isEmpty else { return nil }
        let squared = frames.reduce(0.0) { $0 + Double($1.squaredError) }
        let samples = frames.reduce(0) { $0 + $1.sampleCount }
        return Self.psnr(squaredError: squared, samples: samples)
    }

    /// The mean SSIMULACRA2 score of the compared frames that have one: nil when none has.
    public var meanSSIMULACRA2: Double? {
        let scores = frames.compactMap(\.ssimulacra2)
        return scores.isEmpty ? nil : scores.reduce(0, +) / Double(scores.count)
    }

    /// The lowest SSIMULACRA2 score of a compared frame (the worst-looking frame): nil when
    /// no frame has one.
    public var minSSIMULACRA2: Double? { frames.compactMap(\.ssimulacra2).min() }

    /// What differs: the canvas, the frame count, the plays, the raw and displayed durations
    /// of the frames both have, and the frames whose largest channel difference passes
    /// `tolerance` (0: exact). Empty when the animations are equal within the tolerance.
    public func differences(tolerance: Int = 0) -> [AnimationDifference] {
        var out: [AnimationDifference] = []
        if first.canvasSize != second.canvasSize { out.append(.canvasSize(first.canvasSize, second.canvasSize)) }
        if first.frameCount != second.frameCount { out.append(.frameCount(first.frameCount, second.frameCount)) }
        if first.loopCount != second.loopCount { out.append(.plays(first.loopCount, second.loopCount)) }
        let common = min(first.frameCount, second.frameCount)
        let raw = (0..<common).filter { first.frameDurations[$0] != second.frameDurations[$0] }
        if !raw.isEmpty { out.append(.durations(frames: raw)) }
        let shown = (0..<common).filter { firstDisplayedDurations[$0] != secondDisplayedDurations[$0] }
        if !shown.isEmpty { out.append(.displayedDurations(frames: shown)) }
        let over = frames.filter { $0.maxChannelDifference > tolerance }
        if !over.isEmpty {
            out.append(.pixels(frames: over.map(\.index), maxChannelDifference: maxChannelDifference, tolerance: tolerance))
        }
        return out
    }

    /// Whether nothing differs beyond `tolerance` (the largest channel difference allowed).
    public func isEqual(tolerance: Int = 0) -> Bool { differences(tolerance: tolerance).isEmpty }

    static func psnr(squaredError: UInt64, samples: Int) -> Double {
        psnr(squaredError: Double(squaredError), samples: samples)
    }

    static func psnr(squaredError: Double, samples: Int) -> Double {
        guard squaredError > 0, samples > 0 else { return .infinity }
        let mse = squaredError / Double(samples)
        return 10 * log10(255 * 255 / mse)
    }
}

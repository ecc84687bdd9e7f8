import CAVIF
import Zoetrope
import ZoetropeEncoding

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes AVIF image sequences (and stills) with libavif's encoder and the AV1 encoders
/// libavif was built with (here aom, rav1e and SVT-AV1; aom by default).
///
/// - **Quality.** `EncodingOptions.quality` 0–100 maps linearly onto AV1's quantiser
///   (100 → 0, 0 → 63), for colour and alpha alike; nil encodes lossless (4:4:4 with the
///   identity matrix and quantiser 0, whatever `chroma` says).
/// - **Frames.** Every frame carries an alpha plane, unless `EncodingOptions.framesAreOpaque`
///   (then none: no alpha item or track). A single frame writes a still AVIF;
///   two or more a sequence (`avis`) whose first frame is also the still primary item.
/// - **Timing.** Durations are exact in a media timescale that represents every one (the
///   least common multiple of their denominators, when that and every duration's ticks fit
///   32 bits; else the finest of µs, ms, cs or s whose ticks fit).
/// - **Plays.** libavif 0.11 writes no edit list, so Zoetrope writes `edts/elst` itself: one
///   entry spanning one play, with the repeat flag unless the animation plays once, and a
///   track duration of plays × one play (indefinite when forever), which decoders turn back
///   into plays as `ceil(track / segment)`. Two counts cannot be stored and play forever:
///   more than one play of a sequence whose durations are all zero, and a count whose track
///   duration (plays × one play, in the media timescale's ticks) would pass 2⁶⁴ − 1.
/// - **Colour and metadata.** `EncodingOptions.color.iccProfile` is written as a `colr`
///   `prof` box (`avifImageSetProfileICC`); `EncodingOptions.color.codePoints` set the
///   `nclx` box's primaries and transfer, while its matrix and range stay the ones this
///   encoder codes with (they describe the YUV coding, not the source); Exif and XMP become
///   libavif's metadata items. PNG's `sRGB`, `gAMA` and `cHRM` have no place in AVIF.
public struct AVIFEncoder: AnimatedImageEncoder {
    /// libavif's name of the AV1 encoder: "aom", "rav1e" or "svt" (whichever libavif has).
    public var codec: String
    /// 0 (slowest, smallest) to 10 (fastest).
    public var speed: Int
    /// Bits per sample: 8, 10 or 12. At 10 and 12, RGBA16 frames are coded from their 16
    /// bits (RGBA8 ones from their 8), so deep sources keep their precision.
    public var depth: Int
    /// Chroma subsampling for lossy encoding.
    public var chroma: AVIFChroma
    /// Encoder threads.
    public var threads: Int
    /// What aom is told the frames are (`AVIFContent`; rav1e and svt ignore it). Used at
    /// speeds 0–7 only: `.automatic` gives the default tuning at 8–10, and `.screen` is
    /// refused there (libaom 3.6's real-time mode crashes with it).
    public var content: AVIFContent

    /// An encoder; the defaults (`zoetrope convert`'s too) are aom at speed 6, 8-bit,
    /// `defaultChroma(codec:)` (4:4:4; 4:2:0 for svt), two threads, screen-content tools
    /// for palette sources (`AVIFContent.automatic`). Lossy quality is the caller's
    /// `EncodingOptions.quality`: `defaultQuality` is the tool's.
    public init(
        codec: String = "aom", speed: Int = 6, depth: Int = 8, chroma: AVIFChroma? = nil, threads: Int = 2,
        content: AVIFContent = .automatic
    ) {
        self.codec = codec
        self.speed = speed
        self.depth = depth
        self.chroma = chroma ?? AVIFEncoder.defaultChroma(codec: codec)
        self.threads = threads
        self.content = content
    }

    /// The chroma subsampling used unless another is asked for: 4:4:4, which at quality 70
    /// is both smaller and closer to GIF sources than 4:2:0 at quality 80 (Docs/Converting.md);
    /// 4:2:0 for svt, which writes nothing else.
    public static func defaultChroma(codec: String) -> AVIFChroma {
        codec == "svt" ? .yuv420 : .yuv444
    }

    /// The lossy quality `zoetrope convert` writes when none is given (AV1 quantiser 19).
    /// `EncodingOptions.quality` nil asks for lossless instead, as for every encoder.
    public static let defaultQuality = 70

    /// Always `.avif`.
    public var encodingFormat: ImageFormat { .avif }

    /// True: alpha is an AV1 image of its own (an auxiliary item and track), which
    /// `EncodingOptions.framesAreOpaque` leaves out.
    public var storesAlphaSeparately: Bool { true }

    /// The ICC profile (`colr` `prof`), the code points' primaries and transfer (`colr`
    /// `nclx`), Exif and XMP (metadata items).
    public var writableParts: EmbeddedParts { [.iccProfile, .codePoints, .exif, .xmp] }

    /// True at 10 and 12 bits: RGBA16 frames are coded from their 16 bits.
    public var storesDeepPixels: Bool { depth > 8 }

    /// The speed given to the codec. With aom (libaom 3.6 under libavif 0.11, as on Debian 12)
    /// two speeds are avoided, both measured here and reproduced with `avifenc`: speed 7
    /// crashes inside libaom on any image sequence, so it becomes 6; and speeds 8–10 switch
    /// libaom to its real-time mode, whose "lossless" sequences are not lossless, so lossless
    /// encoding uses at most speed 6.
    package func effectiveSpeed(lossless: Bool) -> Int {
        guard codec == "aom" else { return speed }
        if lossless { return min(speed, 6) }
        return speed == 7 ? 6 : speed
    }

    /// Whether `content` reaches the codec: aom in its good-quality mode (effective speeds
    /// 0–6). libaom 3.6's real-time mode (speeds 8–10) crashes at speed 8 with the screen
    /// tools on a sequence with an alpha plane, so there they are never used.
    func screenToolsApply(lossless: Bool) -> Bool {
        codec == "aom" && effectiveSpeed(lossless: lossless) <= 6
    }

    /// The AV1 quantiser for `quality` (0–100): 0 is best, 63 worst.
    package static func quantizer(forQuality quality: Int) -> Int32 {
        Int32(((100 - max(0, min(100, quality))) * 63 + 50) / 100)
    }

    /// Opens a streaming writer. Throws `.invalidArgument` for a canvas past 65535 a side,
    /// an unknown or decode-only codec, a speed outside 0…10, a depth other than 8, 10 and 12,
    /// `content` `.screen` at aom speeds 8–10 (lossy),
    /// or what the codec cannot write (svt: lossless, 4:4:4, 10 bits, odd sides or under 64×64; rav1e:
    /// sequences under 16×16, refused by `add` when the second frame arrives).
    public func makeWriter(canvasSize: PixelSize, options: EncodingOptions) throws -> any AnimatedImageWriter {
        guard (1...65535).contains(canvasSize.width), (1...65535).contains(canvasSize.height) else {
            throw AnimatedImageError.invalidArgument("AVIF canvases are 1…65535 pixels a side here, got \(canvasSize)")
        }
        guard (0...10).contains(speed) else { throw AnimatedImageError.invalidArgument("AVIF speed is 0…10, got \(speed)") }
        guard [8, 10, 12].contains(depth) else { throw AnimatedImageError.invalidArgument("AVIF depth is 8, 10 or 12, got \(depth)") }
        try options.checkQuality()
        if case .plays(let n)? = options.loopCount, n < 1 {
            throw AnimatedImageError.invalidArgument("AVIF stores at least 1 play (or forever), got \(n)")
        }
        try LibAVIF.load()
        let choice = avifCodecChoiceFromName(codec)
        guard AVIFEncoder.isAvailable(codec: codec) else {
            throw AnimatedImageError.invalidArgument("AVIF encoder '\(codec)' is not available (libavif here: \(AVIFEncoder.availableCodecs))")
        }
        try checkCodecSupports(options, canvasSize: canvasSize)
        if content == .screen, codec == "aom", !screenToolsApply(lossless: options.quality == nil) {
            throw AnimatedImageError.invalidArgument(
                "aom's screen-content tools need speed 0…7 (libaom 3.6's real-time speeds 8–10 crash with them), got speed \(speed)")
        }
        return try AVIFStreamWriter(encoder: self, choice: choice, canvasSize: canvasSize, options: options)
    }

    /// What the chosen AV1 encoder cannot write, refused before libavif is called: SVT-AV1
    /// encodes 4:2:0 only and even pictures of at least 64×64 (libavif reports each as
    /// "Encoding of color planes failed"), and 10-bit input crashes SVT-AV1 1.4 under
    /// libavif 0.11 (as in `avifenc -c svt -d 10`).
    func checkCodecSupports(_ options: EncodingOptions, canvasSize: PixelSize) throws {
        guard codec == "svt" else { return }
        guard canvasSize.width >= 64, canvasSize.height >= 64, canvasSize.width % 2 == 0, canvasSize.height % 2 == 0 else {
            throw AnimatedImageError.invalidArgument(
                "the svt AV1 encoder needs an even canvas of at least 64×64, got \(canvasSize): use aom or rav1e")
        }
        guard options.quality != nil, chroma == .yuv420 else {
            let what = options.quality == nil ? "lossless (4:4:4)" : "4:4:4"
            throw AnimatedImageError.invalidArgument("the svt AV1 encoder writes lossy 4:2:0 only, not \(what): use chroma 4:2:0, or aom or rav1e")
        }
        guard depth == 8 else {
            throw AnimatedImageError.invalidArgument(
                "the svt AV1 encoder is limited to 8 bits here (10-bit input crashes SVT-AV1 1.4 under libavif 0.11): use aom or rav1e for 10 bits")
        }
    }

    /// What the chosen AV1 encoder cannot write as a sequence, refused when a second frame
    /// makes the file one: rav1e encodes stills of any size but sequences of at least 16×16
    /// (libavif reports "Encoding of color planes failed").
    func checkCodecWritesSequences(canvasSize: PixelSize) throws {
        guard codec == "rav1e", canvasSize.width < 16 || canvasSize.height < 16 else { return }
        throw AnimatedImageError.invalidArgument(
            "the rav1e AV1 encoder writes sequences of at least 16×16 (stills of any size), got \(canvasSize): use aom")
    }

    /// Whether libavif here can encode with `codec` ("aom", "rav1e", "svt").
    public static func isAvailable(codec: String) -> Bool {
        guard LibAVIF.isLoaded else { return false }
        let choice = avifCodecChoiceFromName(codec)
        return choice != AVIF_CODEC_CHOICE_AUTO && avifCodecName(choice, avifCodecFlags(AVIF_CODEC_FLAG_CAN_ENCODE.rawValue)) != nil
    }

    /// libavif's list of codecs and versions, e.g. "dav1d [dec]:1.0.0, aom [enc/dec]:3.6.0".
    /// When libavif cannot be loaded, why.
    public static var availableCodecs: String {
        if let reason = LibAVIF.loadFailure { return reason }
        var buffer = [CChar](repeating: 0, count: 256)
        avifCodecVersions(&buffer)
        return LibAVIF.string(buffer)
    }
}

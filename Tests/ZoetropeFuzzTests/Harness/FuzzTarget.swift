import Foundation
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeEncoding
import ZoetropeGIF
import ZoetropeJPEG
import ZoetropeWebP

@testable import Zoetrope

/// One fuzz target: what a fuzzer input goes through.
///
/// This file is shared, not copied: it lives in the `ZoetropeFuzzTests` test target, and
/// `Fuzz/Sources/ZoetropeFuzzHarness` is a symbolic link to its folder, so the libFuzzer
/// executables (`Fuzz/Package.swift`) and the regression test
/// (`FuzzRegressionTests`) run the very same code on an input.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `GIFCoder`: open, info, every frame (capped), seek.
    case gif
    /// `APNGCoder`: open, info, every frame (capped), seek.
    case apng
    /// `WebPCoder`: open, info, every frame (capped), seek.
    case webp
    /// `AVIFCoder`: open, info, every frame (capped), seek.
    case avif
    /// `JPEGCoder`: open (the marker walk, the Exif orientation), info, the one frame.
    case jpeg
    /// A `CoderRegistry` holding the built-in coders: content picks the coder.
    case registry
    /// The GIF block walker (`GIFIndex.parse`) on its own.
    case gifIndex = "gif-index"
    /// The APNG chunk walker (`APNGChunkWalker.index`) on its own.
    case apngChunks = "apng-chunks"
    /// The AVIF box reader (`AVIFIndex.parse`) and the edit-list parser on their own.
    case avifContainer = "avif-container"
    /// The WebP RIFF chunk scanner (`WebPChunkScanner`) on its own.
    case webpChunks = "webp-chunks"
    /// The incremental sessions (`IncrementalDecoding`) of the four coders, the input fed
    /// in pieces: content picks the coder.
    case incremental
    /// The JPEG incremental session alone (libjpeg-turbo's buffered-image mode behind a
    /// source that suspends where the bytes end), fed as `incremental` feeds, with the
    /// JPEG seeds and dictionary.
    case jpegIncremental = "jpeg-incremental"
    /// The encoders: frames the input describes, encoded (GIF, APNG, WebP lossless and
    /// lossy, AVIF), decoded and compared within each format's documented rounding.
    case encode
    /// The disk cache's entry reader (`DiskCacheMetadata`, `DiskCacheEntry`) on its own.
    case diskCacheEntry = "disk-cache-entry"
    /// The loader's HTTP header parsers (`HTTPDate`, `HTTPDeltaSeconds`, `HTTPCachePolicy`)
    /// on header values made of the input's bytes.
    case httpHeaders = "http-headers"
    /// `AnimationConversion` end to end: the input opened through the built-in coders,
    /// converted to the format its length picks, the output decoded and compared.
    case convert
    /// The colour path: a declaration (an ICC profile, code points, `gAMA`/`cHRM`) made
    /// into a transform to sRGB (the matrix-shaper fast path or lcms2), pixels converted.
    case colour

    /// The coder a coder target uses (nil for the registry and the parser targets).
    public var coder: (any AnimatedImageCoder)? {
        switch self {
        case .gif: GIFCoder()
        case .apng: APNGCoder()
        case .webp: WebPCoder()
        case .avif: AVIFCoder()
        case .jpeg: JPEGCoder()
        default: nil
        }
    }

    /// The seed and dictionary family of this target: `gif`, `png`, `webp`, `avif`, `jpeg`,
    /// `encode` (descriptions of frames, no dictionary), `colour` (declarations), or nil (the registry, incremental
    /// and convert targets take several families).
    public var family: String? {
        switch self {
        case .gif, .gifIndex: "gif"
        case .apng, .apngChunks: "png"
        case .webp, .webpChunks: "webp"
        case .avif, .avifContainer: "avif"
        case .jpeg, .jpegIncremental: "jpeg"
        case .encode: "encode"
        case .colour: "colour"
        case .registry, .incremental, .convert, .diskCacheEntry, .httpHeaders: nil
        }
    }

    /// Runs one input through this target. Returns what happened; the caller decides what
    /// a `FuzzOutcome.problem` means (the fuzzer aborts, the test fails).
    public func run(_ data: Data) -> FuzzOutcome {
        switch self {
        case .gif, .apng, .webp, .avif, .jpeg:
            return FuzzHarness.exercise(data, with: coder!)
        case .registry:
            return FuzzHarness.exercise(data, through: FuzzHarness.registry)
        case .gifIndex:
            return FuzzParsers.gifIndex(data)
        case .apngChunks:
            return FuzzParsers.apngChunks(data)
        case .avifContainer:
            return FuzzParsers.avifContainer(data)
        case .webpChunks:
            return FuzzParsers.webpChunks(data)
        case .incremental:
            return FuzzIncremental.run(data)
        case .jpegIncremental:
            return FuzzIncremental.run(data, coder: JPEGCoder())
        case .encode:
            return FuzzEncoding.run(data)
        case .convert:
            return FuzzConversion.run(data)
        case .diskCacheEntry:
            return FuzzDiskCache.entry(data)
        case .httpHeaders:
            return FuzzHTTPHeaders.run(data)
        case .colour:
            return FuzzColour.run(data)
        }
    }
}

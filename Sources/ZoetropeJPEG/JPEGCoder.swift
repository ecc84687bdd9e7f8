import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes JPEG stills, baseline and progressive, over libjpeg-turbo (TurboJPEG): one opaque
/// frame, turned by its Exif orientation so the canvas is the displayed size.
///
/// Greyscale files decode to grey RGBA; CMYK and YCCK files are converted to RGB without
/// colour management (inverted when an Adobe marker says so). A file that ends before its
/// end-of-image marker is truncated and fails to open, and so is one whose scans hold fewer
/// bytes than can fill the frame it declares (Huffman coding takes at least a bit or two per
/// 8×8 block), before anything is allocated. What libjpeg-turbo reads with a warning
/// (bytes that are not a marker where one belongs, a comment or application segment with a
/// length below 2, corrupt data it conceals) decodes as it reads it, as browsers show such
/// files; what the marker walk sees is reported in `AnimationInfo.warnings`, and what only a
/// decode finds (libjpeg-turbo's first warning) by `zoetrope frames` beside them. A progressive
/// file's scan headers are checked as libjpeg-turbo checks them before any pixel is allocated. Lossless, hierarchical and 12-bit JPEGs are
/// `.unsupported`. An ICC profile (`APP2` chunks) is reported in `AnimationInfo.color` and
/// converted to sRGB as `DecodingOptions.colorOutput` says; the Exif block is reported with
/// its orientation set to 1 (the frames are turned already), and the XMP packet as stored.
public struct JPEGCoder: AnimatedImageCoder {
    /// A stateless coder; register it with a `CoderRegistry`.
    public init() {}

    /// The formats this coder reports.
    public var formats: [ImageFormat] { [.jpeg] }

    /// How many leading bytes `sniff` needs to decide.
    public var minimumSniffLength: Int { 3 }

    /// SOI (`FF D8`) followed by the first marker's `FF`. Always a still.
    public func sniff(_ prefix: Data) -> SniffResult {
        ByteSignature.sniff(prefix, magic: [0xFF, 0xD8, 0xFF], format: .jpeg, kind: .still)
    }

    /// Walks the markers, checks the limits, and returns a one-frame session.
    public func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource {
        try JPEGFrameSource(data: data, options: options)
    }

    /// The Exif orientation of the JPEG in `data` (`.up` when it stores none), read without
    /// decoding. Throws what opening it would throw.
    public static func orientation(of data: Data) throws -> JPEGOrientation {
        try data.withUnsafeBytes { raw throws(AnimatedImageError) in try JPEGMarkerScanner.scan(raw) }.orientation
    }
}

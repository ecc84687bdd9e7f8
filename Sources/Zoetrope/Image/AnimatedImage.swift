#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What an application caches for an image: its bytes, its info and a poster frame.
///
/// The poster (frame 0, decoded at `options`) shows at once and is what reduce-motion
/// environments display; playback makes a fresh `FrameSource` from the bytes.
public struct AnimatedImage: Sendable {
    /// The encoded file.
    public let data: Data
    /// The image's info.
    public let info: AnimationInfo
    /// Frame 0, fully composited, at the options' size and alpha mode.
    public let poster: PixelBuffer
    /// The options the poster was decoded with, reused by `makeFrameSource`.
    public let options: DecodingOptions
    private let coder: any AnimatedImageCoder
    /// New sessions sharing the index read by `init`, for sources that can (`SessionForking`).
    private let sessionMaker: (@Sendable () throws -> any FrameSource)?
    /// The name players of this image share frames under (hashed when first needed).
    let contentIdentity: ImageContentIdentity
    /// Bytes of the colour transform the image's sessions convert with.
    private let colorTransformBytes: Int

    /// Sniffs, reads the header and decodes the poster. A coder that throws an error of its
    /// own (a custom coder) is reported as `.codecFailure` naming that error.
    public init(data: Data, registry: CoderRegistry = .shared, options: DecodingOptions = .default) throws(AnimatedImageError) {
        let coder = try registry.coder(for: data)
        var format = coder.formats.first
        let source: any FrameSource
        do {
            source = try coder.makeFrameSource(data: data, options: options)
            format = source.info.format
            self.info = source.info
            self.poster = try source.decodeFrame(at: 0)
        } catch {
            throw AnimatedImageError(
                error,
                format: format
                    ?? ImageFormat(
                        identifier: "unknown", mediaType: "application/octet-stream",
                        fileExtensions: []))
        }
        self.data = data
        self.options = options
        self.coder = coder
        sessionMaker = (source as? any SessionForking)?.sessionMaker()
        colorTransformBytes = (source as? any ColorTransformHolding)?.heldColorTransform?.retainedByteCount ?? 0
        contentIdentity = ImageContentIdentity(data: data, options: options)
    }

    /// Whether there is more than one frame.
    public var isAnimated: Bool { info.isAnimated }

    /// What keeping this value costs in bytes: the poster bitmap, the encoded bytes and the
    /// tables of the colour transform its frames are converted with (none for an untagged
    /// or sRGB file; `ColorTransform.retainedByteCount`).
    public var cost: Int { poster.byteCount + data.count + colorTransformBytes }

    /// A new decoding session over the same bytes: with the image's own options (nil),
    /// reusing the index `init` read where the format's sessions can share one, or with
    /// other decoding options.
    public func makeFrameSource(options: DecodingOptions? = nil) throws -> any FrameSource {
        guard let options else {
            if let sessionMaker { return try sessionMaker() }
            return try coder.makeFrameSource(data: data, options: self.options)
        }
        return try coder.makeFrameSource(data: data, options: options)
    }
}

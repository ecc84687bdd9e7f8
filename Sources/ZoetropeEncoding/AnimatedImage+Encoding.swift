import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AnimatedImage {
    /// The same animation re-encoded by `encoder`, as one call: every frame decoded in
    /// order (at `targetSize` when given, aspect-fit and never upsampled, straight alpha),
    /// written with its raw duration, decoding overlapped with encoding. A deep source
    /// (`AnimationInfo.isDeep`) is decoded as RGBA16 when the encoder `storesDeepPixels`.
    ///
    /// `options` nil keeps the source's plays and asks for lossless where the format has it;
    /// pass options to choose quality, and plays (options without a `loopCount` keep the
    /// source's). For an encoder that `storesAlphaSeparately` (AVIF), the frames are checked
    /// first, and a source whose frames are all opaque is written without alpha. An encoder
    /// (or coder) that throws an error of its own is reported as `.codecFailure` naming that
    /// error.
    ///
    /// Colour and metadata follow `description`: by default the frames are decoded as
    /// stored and the source's colour description (an ICC profile byte for byte) and Exif
    /// and XMP are written where `options` leaves them empty and the format can hold them
    /// (`AnimationConversion.DescriptionPolicy`); `keepsColor: false` converts to sRGB and
    /// declares nothing, `stripsMetadata: true` leaves Exif and XMP out.
    ///
    /// ```swift
    /// let image = try AnimatedImage(data: gifData)
    /// let webp = try image.encoded(with: WebPEncoder())                       // lossless
    /// let avif = try image.encoded(with: AVIFEncoder(), options: EncodingOptions(quality: AVIFEncoder.defaultQuality))
    /// ```
    public func encoded(
        with encoder: any AnimatedImageEncoder, options: EncodingOptions? = nil,
        targetSize: PixelSize? = nil,
        description: AnimationConversion.DescriptionPolicy = .keepAll
    ) throws(AnimatedImageError) -> Data {
        var decoding = self.options
        // Deep sources keep their depth where the encoder writes it.
        decoding.pixelFormat = encoder.storesDeepPixels && info.isDeep ? .rgba16 : .rgba8
        decoding.targetSize = targetSize
        decoding.colorOutput = description.colorOutput
        do {
            let source = try makeFrameSource(options: decoding)
            var chosen = description.encodingOptions(options ?? EncodingOptions(), source: source.info)
            if chosen.loopCount == nil { chosen.loopCount = info.loopCount }
            if encoder.storesAlphaSeparately, !chosen.framesAreOpaque {
                chosen.framesAreOpaque = AnimationConversion.framesAreOpaque(try makeFrameSource(options: decoding))
            }
            let writer = try encoder.makeWriter(canvasSize: source.outputSize, options: chosen)
            return try AnimationConversion.run(source: source, writer: writer).data
        } catch {
            throw AnimatedImageError(error, format: encoder.encodingFormat)
        }
    }
}

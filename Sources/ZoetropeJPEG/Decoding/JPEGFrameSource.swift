import Zoetrope
import ZoetropeColor

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A decoding session over one JPEG: one frame, the stored picture turned by its Exif
/// orientation, opaque, converted to sRGB when an ICC profile says so.
///
/// Opening walks the markers (`JPEGMarkerScanner`) and checks the limits; each decode runs
/// libjpeg-turbo over the whole file. An unrotated picture at full size decodes straight
/// into the caller's buffer; otherwise into a raster of its own, which is turned and
/// scaled into the caller's buffer and freed. Nothing is kept between decodes.
final class JPEGFrameSource: DecodeWarningReporting {
    let info: AnimationInfo
    let options: DecodingOptions
    let header: JPEGHeader
    private let data: Data
    /// The conversion of the file's ICC profile to sRGB (nil: none, or `.stored` asked for).
    let colorTransform: (any ColorTransform)?
    /// libjpeg-turbo's warnings from the decodes so far that the marker walk did not report.
    private let warningsSeen = Locked<[String]>([])

    var decodeWarnings: [String] { warningsSeen.withLock { $0 } }

    init(data: Data, options: DecodingOptions) throws {
        let format = ImageFormat.jpeg
        let header = try data.withUnsafeBytes { raw throws(AnimatedImageError) in try JPEGMarkerScanner.scan(raw) }
        let shown = header.displayedSize
        try options.limits.checkSize(width: shown.width, height: shown.height, format: format)
        try options.limits.checkPixelsPerPlay(frameCount: 1, canvas: shown, format: format)
        try header.checkScanData()
        try Self.budget(header, options: options).check()
        // The Exif block as the frames show it: already turned, so its orientation reads 1.
        var info = AnimationInfo(
            format: format, canvasSize: shown, frameDurations: [.zero], loopCount: .once,
            storedLoopValue: nil, hasAlpha: false, warnings: header.warnings,
            color: ColorInfo(iccProfile: header.iccProfile.map(ICCProfile.init(data:))),
            metadata: EmbeddedMetadata(exif: header.exif.map(ExifOrientationReader.upright), xmp: header.xmp))
        colorTransform = ColorManagement.prepare(&info, options: options)
        self.info = info
        self.options = options
        self.header = header
        self.data = data
    }

    /// What one decode holds at most: the stored raster, a second one when it is turned or
    /// scaled, and libjpeg-turbo's whole-image coefficients for a progressive file (two
    /// bytes a sample, every component at full resolution at most, in 16-pixel MCUs).
    static func budget(_ header: JPEGHeader, options: DecodingOptions) -> AllocationBudget {
        var budget = AllocationBudget(limits: options.limits, format: .jpeg)
        let shown = header.displayedSize
        let direct = header.orientation == .up && options.outputSize(forCanvas: shown) == shown && header.components != 4
        budget.reserve(direct ? 1 : 2, bytesEach: header.storedSize.rgbaByteCount)
        if header.isProgressive {
            let padded = PixelSize(width: (header.storedSize.width + 15) / 16 * 16, height: (header.storedSize.height + 15) / 16 * 16)
            budget.reserve(header.components * 2, bytesEach: padded.pixelCount)
        }
        return budget
    }

    var retainedByteCount: Int { 0 }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        try checkFrameIndex(index)
        let stored = header.storedSize, shown = info.canvasSize, size = outputSize
        let cmyk = header.components == 4
        if header.orientation == .up && size == shown && !cmyk && options.pixelFormat.channelDepth == .eight {
            // Opaque: straight and premultiplied alpha are the same bytes.
            buffer.format = options.pixelFormat
            buffer.reshape(width: stored.width, height: stored.height)
            let stride = buffer.bytesPerRow
            // Tagged: converted band by band as libjpeg-turbo finishes them (`BandedJPEGDecoder`).
            let parallel = options.threadCount != 1 && ProcessorBudget.availableCores > 1
            let warning = try data.withUnsafeBytes { file in
                try buffer.bytes.withUnsafeMutableBytes { pixels in
                    guard let colorTransform else {
                        return try TurboJPEGDecoder.decode(file, size: stored, cmyk: false, into: pixels.baseAddress!, bytesPerRow: stride)
                    }
                    return try BandedJPEGDecoder.decode(
                        file, size: stored, into: pixels.baseAddress!, bytesPerRow: stride, transform: colorTransform, parallel: parallel)
                }
            }
            note(warning)
            return
        }
        var raster = PixelBuffer(width: stored.width, height: stored.height)
        let warning = try data.withUnsafeBytes { file in
            try raster.bytes.withUnsafeMutableBytes { pixels in
                let warning = try TurboJPEGDecoder.decode(
                    file, size: stored, cmyk: cmyk, into: pixels.baseAddress!, bytesPerRow: stored.width * 4)
                if cmyk { JPEGColor.convertCMYK(pixels, inverted: header.hasAdobeMarker) }
                return warning
            }
        }
        note(warning)
        if header.orientation != .up {
            raster = JPEGColor.oriented(raster, header.orientation)
        }
        raster.copy(into: &buffer, size: size, format: options.pixelFormat, colorTransform: colorTransform)
    }

    /// Keeps libjpeg-turbo's warning unless the walk reported it already or a decode before did.
    private func note(_ warning: String?) {
        guard let warning, !info.warnings.contains(warning) else { return }
        warningsSeen.withLock { seen in
            if !seen.contains(warning) { seen.append(warning) }
        }
    }
}

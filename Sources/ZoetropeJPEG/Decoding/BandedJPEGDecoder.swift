import CZoetropeJPEGBands
import Dispatch
import Zoetrope
import ZoetropeColor

/// A tagged JPEG decoded and converted to sRGB in bands of rows: libjpeg-turbo decodes band
/// after band on the caller's thread while each finished band is converted on a worker of
/// Dispatch's pool (`parallel`), so the conversion mostly overlaps the decode; on one thread,
/// each band is converted as soon as it is decoded, while its rows are still in the cache.
///
/// The pixels are those of `TurboJPEGDecoder` followed by the transform on the whole frame:
/// the same decompressor settings, and every pixel is converted on its own.
enum BandedJPEGDecoder {
    /// TurboJPEG's `TJFLAG_LIMITSCANS` limit.
    static let maxScans: Int32 = 500

    /// Rows per band: about 64 Ki pixels (16 rows at least), enough to outweigh a hand-off.
    static func bandRows(width: Int) -> Int {
        max(16, (65_536 / max(1, width) + 15) / 16 * 16)
    }

    /// Decodes `file` (a `size` frame, not CMYK) into `pixels` as RGBA8, converted by
    /// `transform`; returns libjpeg-turbo's first warning, as `TurboJPEGDecoder.decode` does.
    static func decode(
        _ file: UnsafeRawBufferPointer, size: PixelSize, into pixels: UnsafeMutableRawPointer, bytesPerRow: Int,
        transform: any ColorTransform, parallel: Bool
    ) throws(AnimatedImageError) -> String? {
        let format = ImageFormat.jpeg
        let conversion = JPEGBandConversion(
            transform: ColorManagement.rowTransform(of: transform), pixels: pixels, width: size.width, bytesPerRow: bytesPerRow,
            parallel: parallel)
        var status = zoetrope_jpeg_bands_status()
        let result = withExtendedLifetime(conversion) {
            zoetrope_jpeg_decode_bands(
                file.bindMemory(to: UInt8.self).baseAddress, file.count, UInt32(size.width), UInt32(size.height),
                pixels.assumingMemoryBound(to: UInt8.self), bytesPerRow, UInt32(bandRows(width: size.width)), maxScans,
                { context, first, count in
                    Unmanaged<JPEGBandConversion>.fromOpaque(context!).takeUnretainedValue().rowsReady(Int(first), Int(count))
                }, Unmanaged.passUnretained(conversion).toOpaque(), &status)
        }
        // Bands already handed to workers finish before the pixels are anyone else's.
        conversion.wait()
        switch Int(result) {
        case ZOETROPE_JPEG_BANDS_OK:
            return status.warned != 0 ? text(&status.warning) : nil
        case ZOETROPE_JPEG_BANDS_MISMATCH where status.cmyk != 0:
            throw .invalidData(format: format, reason: "the colour space does not match the frame's 3 components")
        case ZOETROPE_JPEG_BANDS_MISMATCH:
            throw .invalidData(
                format: format, reason: "libjpeg-turbo reads a \(status.width)×\(status.height) frame where the header says \(size)")
        default:
            throw .invalidData(format: format, reason: text(&status.message))
        }
    }

    private static func text<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

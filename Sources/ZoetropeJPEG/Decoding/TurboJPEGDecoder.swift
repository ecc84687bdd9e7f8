import CTurboJPEG
import Zoetrope

/// One libjpeg-turbo decompression of a whole file into an RGBA8 or CMYK raster.
///
/// A handle is made per decode and destroyed after it: a TurboJPEG handle is not safe to
/// share between threads, and its set-up is small beside a decode.
enum TurboJPEGDecoder {
    static let library = "libjpeg-turbo"

    /// Decodes `file` into `pixels` (`bytesPerRow` apart, `size` being the header's stored
    /// size): RGBA8 (alpha 255), or for a CMYK or YCCK file 8-bit CMYK as stored.
    ///
    /// libjpeg-turbo's warnings, in the header or the scans (corrupt entropy-coded data it
    /// conceals, extraneous bytes before a marker), are accepted with the picture it
    /// produced, as browsers show such files, and the first one's text is returned; its
    /// errors throw `.invalidData` with its message. Progressive files are
    /// limited to libjpeg-turbo's scan limit (`TJFLAG_LIMITSCANS`), which refuses the
    /// pathological many-scan files that would take minutes.
    @discardableResult
    static func decode(
        _ file: UnsafeRawBufferPointer, size: PixelSize, cmyk: Bool,
        into pixels: UnsafeMutableRawPointer, bytesPerRow: Int
    ) throws(AnimatedImageError) -> String? {
        let format = ImageFormat.jpeg
        guard let handle = tjInitDecompress() else {
            throw .codecFailure(format: format, library: library, message: "could not create a decompressor")
        }
        defer { tjDestroy(handle) }
        let jpeg = file.bindMemory(to: UInt8.self).baseAddress
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = -1, colorspace: Int32 = -1
        // A warning (extraneous bytes before a marker, say) leaves the header read; an error
        // after a warning still reports a warning, but leaves the values unset.
        if tjDecompressHeader3(handle, jpeg, UInt(file.count), &width, &height, &subsampling, &colorspace) != 0,
            !isWarning(handle) || width < 1 || height < 1 || subsampling < 0 || colorspace < 0
        {
            throw .invalidData(format: format, reason: message(handle))
        }
        // The raster was sized from the walk's header: libjpeg-turbo must agree before it writes.
        guard Int(width) == size.width, Int(height) == size.height else {
            throw .invalidData(format: format, reason: "libjpeg-turbo reads a \(width)×\(height) frame where the header says \(size)")
        }
        let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        guard isCMYK == cmyk else {
            throw .invalidData(format: format, reason: "the colour space does not match the frame's \(cmyk ? 4 : 3) components")
        }
        let pixelFormat = Int32(cmyk ? TJPF_CMYK.rawValue : TJPF_RGBA.rawValue)
        let status = tjDecompress2(
            handle, jpeg, UInt(file.count), pixels.assumingMemoryBound(to: UInt8.self),
            width, Int32(bytesPerRow), height, pixelFormat, TJFLAG_LIMITSCANS)
        guard status != 0 else { return nil }
        guard isWarning(handle) else { throw .invalidData(format: format, reason: message(handle)) }
        return message(handle)
    }

    /// Whether the last call failed with only warnings. TurboJPEG says "warning" for an
    /// error that came after a warning too; the message is then the error's, which is none
    /// of libjpeg's warning texts.
    private static func isWarning(_ handle: tjhandle) -> Bool {
        guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else { return false }
        let text = message(handle)
        return warningTexts.contains { text.hasPrefix($0) }
    }

    /// How libjpeg's warnings (`JWRN_*` in jerror.h) begin.
    static let warningTexts = [
        "Corrupt JPEG data", "Premature end of JPEG file", "Invalid SOS parameters for sequential JPEG",
        "Inconsistent progression sequence", "Warning: ", "Application transferred too many scanlines",
        "Unknown Adobe color transform code",
    ]

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }
}

import CGIF
import Zoetrope

/// One giflib decoder opened over the file in memory with `DGifOpen` and a read callback
/// (never `DGifSlurp`): it parses the header once, then decodes one image at a time from
/// whatever offset the frame index says, so it holds no frame's raster.
final class GIFLibHandle {
    let input = GIFMemoryInput()
    private(set) var gif: UnsafeMutablePointer<GifFileType>

    /// Opens over `bytes` (the whole file). giflib reads the screen descriptor and global colour table.
    init(bytes: UnsafeRawBufferPointer) throws(AnimatedImageError) {
        input.base = bytes.baseAddress.map { UnsafeRawPointer($0) }
        input.count = bytes.count
        input.position = 0
        var error: Int32 = 0
        guard let gif = DGifOpen(Unmanaged.passUnretained(input).toOpaque(), GIFMemoryInput.read, &error) else {
            throw GIFLibHandle.error(error, context: "opening the file")
        }
        self.gif = gif
    }

    deinit {
        var error: Int32 = 0
        input.base = nil
        DGifCloseFile(gif, &error)
    }

    /// Points the reader at `bytes` again (the same file; the address may differ between calls).
    func rebind(_ bytes: UnsafeRawBufferPointer) {
        input.base = bytes.baseAddress.map { UnsafeRawPointer($0) }
        input.count = bytes.count
    }

    /// Reads the image descriptor that starts at `offset` (just after its 0x2C separator)
    /// and readies giflib's LZW decoder for its pixels.
    func beginImage(at offset: Int) throws(AnimatedImageError) {
        // giflib appends every descriptor to SavedImages; drop them so memory stays flat.
        // ImageCount must go back to 0 with them, or the next append writes past the array.
        GifFreeSavedImages(gif)
        gif.pointee.ImageCount = 0
        input.position = offset
        guard DGifGetImageDesc(gif) == GIF_OK else {
            throw GIFLibHandle.error(gif.pointee.Error, context: "reading an image descriptor")
        }
    }

    /// The colour table in effect for the current image: its local one, else the global one.
    var colorMap: UnsafeMutablePointer<ColorMapObject>? {
        gif.pointee.Image.ColorMap ?? gif.pointee.SColorMap
    }

    /// Decodes the next `count` palette indices of the current image into `line`.
    /// Returns giflib's error code on failure.
    func readLine(_ line: UnsafeMutablePointer<UInt8>, count: Int) -> Int32? {
        DGifGetLine(gif, line, Int32(count)) == GIF_OK ? nil : gif.pointee.Error
    }

    /// A typed error for a giflib error code.
    static func error(_ code: Int32, context: String) -> AnimatedImageError {
        let message = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
        switch code {
        case D_GIF_ERR_NOT_ENOUGH_MEM:
            return .codecFailure(format: .gif, library: "giflib", message: "\(message) (\(context))")
        default:
            return .invalidData(format: .gif, reason: "\(context): \(message)")
        }
    }
}

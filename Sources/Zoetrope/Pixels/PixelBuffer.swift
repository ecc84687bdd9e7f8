/// A reusable RGBA bitmap (8 or 16 bits per channel, `format`) with an explicit row stride.
///
/// Decoders write into a buffer the caller provides, so a player can keep a pool of
/// buffers and decode without allocating. `reshape` keeps the storage when it is big
/// enough.
public struct PixelBuffer: Sendable, Equatable {
    /// Width in pixels.
    public private(set) var width: Int
    /// Height in pixels.
    public private(set) var height: Int
    /// Bytes from the start of one row to the start of the next (≥ width × `format.bytesPerPixel`).
    public private(set) var bytesPerRow: Int
    /// Straight or premultiplied alpha, and the channel depth. Set it before `reshape`,
    /// which sizes rows by it.
    public var format: PixelFormat
    /// The pixel storage: always exactly `bytesPerRow × height` bytes.
    private var storage: [UInt8]

    /// The pixel bytes; rows follow each other at `bytesPerRow`, so there are exactly
    /// `bytesPerRow × height` of them.
    ///
    /// Write pixels in place (`bytes.withUnsafeMutableBytes`, subscripts) or assign an array
    /// of the same length. Changing the length would break the stride, so it stops the
    /// program instead; use `reshape` to change the size.
    public var bytes: [UInt8] {
        _read { yield storage }
        _modify {
            yield &storage
            precondition(
                storage.count == bytesPerRow * height,
                "PixelBuffer.bytes must stay bytesPerRow × height bytes long; use reshape to resize")
        }
    }

    /// A fully transparent buffer. `bytesPerRow` defaults to `width × format.bytesPerPixel`.
    public init(width: Int, height: Int, format: PixelFormat = .rgba8, bytesPerRow: Int? = nil) {
        precondition(width >= 0 && height >= 0, "PixelBuffer size must not be negative")
        let stride = bytesPerRow ?? width * format.bytesPerPixel
        precondition(stride >= width * format.bytesPerPixel, "bytesPerRow must hold a row")
        precondition(format.channelDepth == .eight || stride % 2 == 0, "RGBA16 rows start on whole channels")
        self.width = width
        self.height = height
        self.bytesPerRow = stride
        self.format = format
        self.storage = [UInt8](repeating: 0, count: stride * height)
    }

    /// An empty buffer, to be shaped by the first decode.
    public init() {
        self.init(width: 0, height: 0)
    }

    /// The size in pixels.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Bytes of pixel storage held (capacity may be larger after a shrink).
    public var byteCount: Int { storage.count }

    /// Changes the size (and stride) keeping the storage when it is large enough.
    /// Pixel contents are unspecified afterwards unless `clear` is true.
    package mutating func reshape(width: Int, height: Int, bytesPerRow: Int? = nil, clear: Bool = false) {
        let bpp = format.bytesPerPixel, stride = bytesPerRow ?? width * bpp
        precondition(width >= 0 && height >= 0 && stride >= width * bpp, "invalid PixelBuffer shape")
        precondition(format.channelDepth == .eight || stride % 2 == 0, "RGBA16 rows start on whole channels")
        self.width = width
        self.height = height
        self.bytesPerRow = stride
        let needed = stride * height
        if storage.count != needed {
            if storage.count > needed {
                storage.removeLast(storage.count - needed)
            } else if storage.isEmpty {
                // One allocation: appending to an empty array would hold the zeros twice.
                storage = [UInt8](repeating: 0, count: needed)
            } else {
                // Array(repeating:) is a memset even in debug builds; a generic append is not.
                storage += [UInt8](repeating: 0, count: needed - storage.count)
            }
        }
        if clear { clearToTransparent() }
    }

    /// Sets every pixel to transparent black.
    package mutating func clearToTransparent() {
        storage.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { base.initializeMemory(as: UInt8.self, repeating: 0, count: raw.count) }
        }
    }

    /// The RGBA value of one pixel of an RGBA8 buffer.
    public func pixel(x: Int, y: Int) -> [UInt8] {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x),\(y)) outside \(width)×\(height)")
        precondition(format.channelDepth == .eight, "pixel(x:y:) reads RGBA8; use pixel16(x:y:)")
        let o = y * bytesPerRow + x * 4
        return Array(bytes[o..<o + 4])
    }

    /// Sets one pixel of an RGBA8 buffer.
    public mutating func setPixel(x: Int, y: Int, _ rgba: [UInt8]) {
        precondition(x >= 0 && x < width && y >= 0 && y < height && rgba.count == 4)
        precondition(format.channelDepth == .eight, "setPixel(x:y:_:) writes RGBA8; use setPixel16(x:y:_:)")
        let o = y * bytesPerRow + x * 4
        storage.replaceSubrange(o..<o + 4, with: rgba)
    }

    /// The pixels packed without row padding (width × `format.bytesPerPixel` bytes per row).
    public var packedBytes: [UInt8] {
        let rowBytes = width * format.bytesPerPixel
        if bytesPerRow == rowBytes { return bytes }
        var out = [UInt8]()
        out.reserveCapacity(rowBytes * height)
        for y in 0..<height {
            out.append(contentsOf: bytes[y * bytesPerRow..<y * bytesPerRow + rowBytes])
        }
        return out
    }
}

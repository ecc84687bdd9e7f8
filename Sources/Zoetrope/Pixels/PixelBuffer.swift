/// A reusable RGBA8 bitmap with an explicit row stride.
///
/// Decoders write into a buffer the caller provides, so a player can keep a pool of
/// buffers and decode without allocating. `reshape` keeps the storage when it is big
/// enough.
public struct PixelBuffer: Sendable, Equatable {
    /// Width in pixels.
    public private(set) var width: Int
    /// Height in pixels.
    public private(set) var height: Int
    /// Bytes from the start of one row to the start of the next (≥ width × 4).
    public private(set) var bytesPerRow: Int
    /// Straight or premultiplied alpha.
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

    /// A fully transparent buffer. `bytesPerRow` defaults to `width × 4`.
    public init(width: Int, height: Int, format: PixelFormat = .rgba8, bytesPerRow: Int? = nil) {
        precondition(width >= 0 && height >= 0, "PixelBuffer size must not be negative")
        let stride = bytesPerRow ?? width * 4
        precondition(stride >= width * 4, "bytesPerRow must hold a row")
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
    public mutating func reshape(width: Int, height: Int, bytesPerRow: Int? = nil, clear: Bool = false) {
        let stride = bytesPerRow ?? width * 4
        precondition(width >= 0 && height >= 0 && stride >= width * 4, "invalid PixelBuffer shape")
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
    public mutating func clearToTransparent() {
        storage.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { base.initializeMemory(as: UInt8.self, repeating: 0, count: raw.count) }
        }
    }

    /// The RGBA value of one pixel.
    public func pixel(x: Int, y: Int) -> [UInt8] {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x),\(y)) outside \(width)×\(height)")
        let o = y * bytesPerRow + x * 4
        return Array(bytes[o..<o + 4])
    }

    /// Sets one pixel.
    public mutating func setPixel(x: Int, y: Int, _ rgba: [UInt8]) {
        precondition(x >= 0 && x < width && y >= 0 && y < height && rgba.count == 4)
        let o = y * bytesPerRow + x * 4
        storage.replaceSubrange(o..<o + 4, with: rgba)
    }

    /// The pixels packed without row padding (width × 4 bytes per row).
    public var packedBytes: [UInt8] {
        if bytesPerRow == width * 4 { return bytes }
        var out = [UInt8]()
        out.reserveCapacity(width * height * 4)
        for y in 0..<height {
            out.append(contentsOf: bytes[y * bytesPerRow..<y * bytesPerRow + width * 4])
        }
        return out
    }
}

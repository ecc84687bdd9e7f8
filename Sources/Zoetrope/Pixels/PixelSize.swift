/// A width and height in pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int

    /// A size of `width` × `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// width × height, or nil if that overflows.
    package var pixelCount: Int? {
        let (p, o) = width.multipliedReportingOverflow(by: height)
        return o ? nil : p
    }

    /// Bytes of one RGBA8 frame of this size, or nil on overflow.
    package var rgbaByteCount: Int? {
        guard let p = pixelCount else { return nil }
        let (b, o) = p.multipliedReportingOverflow(by: 4)
        return o ? nil : b
    }

    /// Bytes of one RGBA frame of this size at `depth`, or nil on overflow.
    package func frameByteCount(depth: ChannelDepth) -> Int? {
        guard let b = rgbaByteCount else { return nil }
        let (d, o) = b.multipliedReportingOverflow(by: depth.bytesPerChannel)
        return o ? nil : d
    }

    /// "W×H".
    public var description: String { "\(width)×\(height)" }
}

/// Bits per colour or alpha channel in a pixel buffer.
public enum ChannelDepth: Int, Hashable, Sendable, CaseIterable {
    /// One byte per channel, 0–255: what GIF, WebP and JPEG store, and the default.
    case eight = 8
    /// Two bytes per channel, 0–65,535, each a `UInt16` in the machine's byte order: what
    /// 16-bit PNG stores, and what 10- and 12-bit AVIF decode to without rounding.
    case sixteen = 16

    /// Bytes one channel takes: 1 or 2.
    package var bytesPerChannel: Int { rawValue / 8 }

    /// Bytes of one RGBA pixel at this depth: 4 or 8.
    package var bytesPerPixel: Int { 4 * bytesPerChannel }
}

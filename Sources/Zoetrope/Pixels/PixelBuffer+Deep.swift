extension PixelBuffer {
    /// The RGBA value of one pixel of an RGBA16 buffer.
    public func pixel16(x: Int, y: Int) -> [UInt16] {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x),\(y)) outside \(width)×\(height)")
        precondition(format.channelDepth == .sixteen, "pixel16(x:y:) reads RGBA16; use pixel(x:y:)")
        let o = y * bytesPerRow + x * 8
        return bytes.withUnsafeBytes { raw in (0..<4).map { raw.loadUnaligned(fromByteOffset: o + $0 * 2, as: UInt16.self) } }
    }

    /// Sets one pixel of an RGBA16 buffer.
    package mutating func setPixel16(x: Int, y: Int, _ rgba: [UInt16]) {
        precondition(x >= 0 && x < width && y >= 0 && y < height && rgba.count == 4)
        precondition(format.channelDepth == .sixteen, "setPixel16(x:y:_:) writes RGBA16; use setPixel(x:y:_:)")
        let o = y * bytesPerRow + x * 8
        bytes.withUnsafeMutableBytes { raw in
            for c in 0..<4 { raw.storeBytes(of: rgba[c], toByteOffset: o + c * 2, as: UInt16.self) }
        }
    }

    /// This buffer at `depth`, alpha mode kept: 8-bit values widen exactly (v × 257),
    /// 16-bit values round to the nearest 8-bit one. The same buffer when it already is.
    package func converted(to depth: ChannelDepth) -> PixelBuffer {
        guard depth != format.channelDepth else { return self }
        var out = PixelBuffer(width: 0, height: 0, format: format)
        convert(to: depth, placedAt: PixelRect(x: 0, y: 0, width: width, height: height), into: &out)
        return out
    }

    /// Writes this buffer at the other depth into `output` (reshaped to `size`, its storage
    /// reused), its pixels at `region`'s origin and transparent elsewhere, alpha mode kept.
    package func convert(to depth: ChannelDepth, placedAt region: PixelRect, into output: inout PixelBuffer, size: PixelSize? = nil) {
        precondition(depth != format.channelDepth, "converts between depths")
        let outSize = size ?? self.size
        output.format = PixelFormat(alphaMode: format.alphaMode, channelDepth: depth)
        output.reshape(
            width: outSize.width, height: outSize.height, clear: region != PixelRect(x: 0, y: 0, width: outSize.width, height: outSize.height))
        let w = region.width * 4, srcStride = bytesPerRow, dstStride = output.bytesPerRow
        let dstStart = region.y * dstStride + region.x * depth.bytesPerPixel
        bytes.withUnsafeBytes { src in
            output.bytes.withUnsafeMutableBytes { dst in
                for y in 0..<region.height {
                    let s = src.baseAddress! + y * srcStride, d = dst.baseAddress! + dstStart + y * dstStride
                    if depth == .sixteen {
                        let s8 = s.assumingMemoryBound(to: UInt8.self), d16 = d.assumingMemoryBound(to: UInt16.self)
                        for i in 0..<w { d16[i] = UInt16(s8[i]) &* 257 }
                    } else {
                        let s16 = s.assumingMemoryBound(to: UInt16.self), d8 = d.assumingMemoryBound(to: UInt8.self)
                        for i in 0..<w { d8[i] = PixelBuffer.narrow(s16[i]) }
                    }
                }
            }
        }
    }

    /// The nearest 8-bit value to a 16-bit one: round(v × 255 / 65,535).
    @inline(__always)
    static func narrow(_ v: UInt16) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt32(v) &* 255 &+ 32_767) / 65_535)
    }

    @inline(__always)
    static func premultiplyRow16(_ d: UnsafeMutablePointer<UInt16>, _ s: UnsafePointer<UInt16>, count: Int) {
        for i in 0..<count {
            let o = i * 4
            let a = UInt64(s[o + 3])
            if a == 65_535 {
                d[o] = s[o]; d[o + 1] = s[o + 1]; d[o + 2] = s[o + 2]; d[o + 3] = 65_535
            } else {
                for c in 0..<3 { d[o + c] = UInt16((UInt64(s[o + c]) * a + 32_767) / 65_535) }
                d[o + 3] = UInt16(a)
            }
        }
    }

    @inline(__always)
    static func unpremultiplyRow16(_ p: UnsafeMutablePointer<UInt16>, count: Int) {
        for i in 0..<count {
            let o = i * 4
            let a = UInt64(p[o + 3])
            if a == 65_535 { continue }
            if a == 0 { p[o] = 0; p[o + 1] = 0; p[o + 2] = 0; continue }
            for c in 0..<3 { p[o + c] = UInt16(min(65_535, (UInt64(p[o + c]) * 65_535 + a / 2) / a)) }
        }
    }
}

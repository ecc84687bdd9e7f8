extension PixelBuffer {
    /// Fills `rect` (clipped to the buffer) with one RGBA8 value, replacing what was there
    /// (widened exactly, v × 257, in an RGBA16 buffer).
    package mutating func fill(_ rect: PixelRect, with rgba: (UInt8, UInt8, UInt8, UInt8)) {
        let r = rect.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        guard !r.isEmpty else { return }
        let stride = bytesPerRow
        if format.channelDepth == .sixteen {
            let wide = [rgba.0, rgba.1, rgba.2, rgba.3].map { UInt16($0) &* 257 }
            for y in r.y..<(r.y + r.height) { for x in r.x..<(r.x + r.width) { setPixel16(x: x, y: y, wide) } }
            return
        }
        bytes.withUnsafeMutableBytes { raw in
            let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for y in r.y..<(r.y + r.height) {
                var o = y * stride + r.x * 4
                for _ in 0..<r.width {
                    p[o] = rgba.0; p[o + 1] = rgba.1; p[o + 2] = rgba.2; p[o + 3] = rgba.3
                    o += 4
                }
            }
        }
    }
}

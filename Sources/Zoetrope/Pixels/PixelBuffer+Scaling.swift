extension PixelBuffer {
    /// Copies this straight-alpha buffer into `output` at `size`, in `format`'s alpha mode.
    ///
    /// Same size: a row copy (premultiplying when asked). Smaller: a box filter that
    /// averages premultiplied values, so transparent pixels do not bleed their colour.
    /// `output` is reshaped, keeping its storage when large enough.
    public func copy(into output: inout PixelBuffer, size: PixelSize, format: PixelFormat) {
        copy(placedAt: PixelRect(x: 0, y: 0, width: width, height: height), inCanvasOf: self.size, into: &output, size: size, format: format)
    }

    /// Copies this straight-alpha buffer, the pixels of `region` of a canvas of `canvasSize`
    /// that is transparent elsewhere, into `output` at `size` in `format`'s alpha mode: the
    /// pixels `copy(into:size:format:)` gives for that whole canvas, without allocating it.
    package func copy(
        placedAt region: PixelRect, inCanvasOf canvasSize: PixelSize, into output: inout PixelBuffer, size: PixelSize, format: PixelFormat
    ) {
        precondition(
            format.alphaMode == .premultiplied || self.format.alphaMode == .straight,
            "copy(into:) reads straight alpha")
        precondition(
            region.isEmpty
                || (region.width == width && region.height == height
                    && PixelRect(x: 0, y: 0, width: canvasSize.width, height: canvasSize.height).contains(region)),
            "the region is this buffer's size and lies inside the canvas")
        if format.channelDepth != self.format.channelDepth {
            // Widened or narrowed into `output`; premultiplied after widening, so 16-bit
            // output keeps the precision the multiplication gives.
            let widens = format.channelDepth == .sixteen
            let fullSize = canvasSize.width > 0 && canvasSize.height > 0 && size.width >= canvasSize.width && size.height >= canvasSize.height
            if fullSize, widens || self.format.alphaMode == format.alphaMode {
                // Full size: the region's rows straight into the output, no copy between.
                convert(to: format.channelDepth, placedAt: region, into: &output, size: canvasSize)
            } else {
                var same = PixelBuffer(width: 0, height: 0, format: self.format)
                let sameFormat = PixelFormat(alphaMode: widens ? .straight : format.alphaMode, channelDepth: self.format.channelDepth)
                copy(placedAt: region, inCanvasOf: canvasSize, into: &same, size: size, format: sameFormat)
                same.convert(to: format.channelDepth, placedAt: PixelRect(x: 0, y: 0, width: same.width, height: same.height), into: &output)
            }
            if format.alphaMode == .premultiplied { output.premultiplyAlpha() }
            return
        }
        let cw = canvasSize.width, ch = canvasSize.height
        let w = max(1, min(size.width, cw)), h = max(1, min(size.height, ch))
        output.format = format
        // Cleared only where the region leaves pixels to be transparent.
        output.reshape(width: w, height: h, clear: region != PixelRect(x: 0, y: 0, width: cw, height: ch))
        guard cw > 0, ch > 0, !region.isEmpty else { return }
        let premultiply = format.alphaMode == .premultiplied
        let srcStride = bytesPerRow, dstStride = output.bytesPerRow
        if format.channelDepth == .sixteen {
            bytes.withUnsafeBytes { srcRaw in
                output.bytes.withUnsafeMutableBytes { dstRaw in
                    let src = srcRaw.baseAddress!.assumingMemoryBound(to: UInt16.self)
                    let dst = dstRaw.baseAddress!.assumingMemoryBound(to: UInt16.self)
                    if w == cw && h == ch {
                        for y in 0..<region.height {
                            let s = src + y * srcStride / 2, d = dst + (region.y + y) * dstStride / 2 + region.x * 4
                            if premultiply {
                                PixelBuffer.premultiplyRow16(d, s, count: region.width)
                            } else {
                                d.update(from: s, count: region.width * 4)
                            }
                        }
                    } else {
                        // Strides in channels (UInt16s), not bytes.
                        PixelBuffer.boxFilter(
                            src: src, srcStride: srcStride / 2, region: region, canvasW: cw, canvasH: ch, dst: dst,
                            dstStride: dstStride / 2, dstW: w, dstH: h, premultipliedOutput: premultiply, rows: 0..<h)
                    }
                }
            }
            return
        }
        bytes.withUnsafeBytes { srcRaw in
            output.bytes.withUnsafeMutableBytes { dstRaw in
                let src = srcRaw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let dst = dstRaw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                if w == cw && h == ch {
                    for y in 0..<region.height {
                        let s = src + y * srcStride, d = dst + (region.y + y) * dstStride + region.x * 4
                        if premultiply {
                            PixelBuffer.premultiplyRow(d, s, count: region.width)
                        } else {
                            d.update(from: s, count: region.width * 4)
                        }
                    }
                } else {
                    PixelBuffer.boxDownsample(
                        src: src, srcStride: srcStride, region: region, canvasW: cw, canvasH: ch,
                        dst: dst, dstStride: dstStride, dstW: w, dstH: h, premultipliedOutput: premultiply)
                }
            }
        }
    }

    /// Converts straight alpha to premultiplied in place.
    package mutating func premultiplyAlpha() {
        guard format.alphaMode == .straight else { return }
        let stride = bytesPerRow, w = width, h = height, deep = format.channelDepth == .sixteen
        bytes.withUnsafeMutableBytes { raw in
            if deep {
                let p = raw.baseAddress!.assumingMemoryBound(to: UInt16.self)
                for y in 0..<h { PixelBuffer.premultiplyRow16(p + y * stride / 2, p + y * stride / 2, count: w) }
            } else {
                let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                for y in 0..<h { PixelBuffer.premultiplyRow(p + y * stride, p + y * stride, count: w) }
            }
        }
        format.alphaMode = .premultiplied
    }

    /// Converts premultiplied alpha to straight in place (exact where the colour survived
    /// premultiplication).
    package mutating func unpremultiplyAlpha() {
        guard format.alphaMode == .premultiplied else { return }
        let stride = bytesPerRow, w = width, h = height
        if format.channelDepth == .sixteen {
            bytes.withUnsafeMutableBytes { raw in
                let p = raw.baseAddress!.assumingMemoryBound(to: UInt16.self)
                for y in 0..<h { PixelBuffer.unpremultiplyRow16(p + y * stride / 2, count: w) }
            }
            format.alphaMode = .straight
            return
        }
        bytes.withUnsafeMutableBytes { raw in
            let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for y in 0..<h {
                let row = p + y * stride
                for i in 0..<w {
                    let a = UInt32(row[i * 4 + 3])
                    if a == 255 { continue }
                    if a == 0 { row[i * 4] = 0; row[i * 4 + 1] = 0; row[i * 4 + 2] = 0; continue }
                    for c in 0..<3 { row[i * 4 + c] = UInt8(min(255, (UInt32(row[i * 4 + c]) * 255 + a / 2) / a)) }
                }
            }
        }
        format.alphaMode = .straight
    }

    @inline(__always)
    static func premultiplyRow(_ d: UnsafeMutablePointer<UInt8>, _ s: UnsafePointer<UInt8>, count: Int) {
        for i in 0..<count {
            let o = i * 4
            let a = UInt32(s[o + 3])
            if a == 255 {
                d[o] = s[o]; d[o + 1] = s[o + 1]; d[o + 2] = s[o + 2]; d[o + 3] = 255
            } else {
                d[o] = UInt8((UInt32(s[o]) * a + 127) / 255)
                d[o + 1] = UInt8((UInt32(s[o + 1]) * a + 127) / 255)
                d[o + 2] = UInt8((UInt32(s[o + 2]) * a + 127) / 255)
                d[o + 3] = UInt8(a)
            }
        }
    }

    /// Box-filters the canvas of `canvasW`×`canvasH` whose pixels inside `region` are `src`
    /// (`srcStride` apart) and transparent elsewhere down to `dstW`×`dstH`. Each output pixel
    /// averages its box of the canvas; pixels outside `region` add nothing but count in the
    /// box, so the result equals filtering a whole canvas.
    ///
    /// `rows` limits the work to those output rows (a caller converting the canvas in bands).
    package static func boxDownsample(
        src: UnsafePointer<UInt8>, srcStride: Int, region: PixelRect, canvasW: Int, canvasH: Int,
        dst: UnsafeMutablePointer<UInt8>, dstStride: Int, dstW: Int, dstH: Int,
        premultipliedOutput: Bool, rows: Range<Int>? = nil
    ) {
        boxFilter(
            src: src, srcStride: srcStride, region: region, canvasW: canvasW, canvasH: canvasH, dst: dst,
            dstStride: dstStride, dstW: dstW, dstH: dstH, premultipliedOutput: premultipliedOutput, rows: rows ?? 0..<dstH)
    }

    /// `boxDownsample` at any channel depth (RGBA8 or RGBA16), strides in channels. Inlined
    /// into each caller, so each depth gets its own specialised loop.
    @inline(__always)
    static func boxFilter<Channel: FixedWidthInteger & UnsignedInteger>(
        src: UnsafePointer<Channel>, srcStride: Int, region: PixelRect, canvasW: Int, canvasH: Int,
        dst: UnsafeMutablePointer<Channel>, dstStride: Int, dstW: Int, dstH: Int,
        premultipliedOutput: Bool, rows: Range<Int>
    ) {
        let maxChannel = UInt64(Channel.max)
        for oy in rows {
            let y0 = oy * canvasH / dstH, y1 = max(y0 + 1, (oy + 1) * canvasH / dstH)
            let ys = max(y0, region.y), ye = min(y1, region.y + region.height)
            for ox in 0..<dstW {
                let x0 = ox * canvasW / dstW, x1 = max(x0 + 1, (ox + 1) * canvasW / dstW)
                let xs = max(x0, region.x), xe = min(x1, region.x + region.width)
                var r: UInt64 = 0, g: UInt64 = 0, b: UInt64 = 0, a: UInt64 = 0
                if ys < ye, xs < xe {
                    for y in ys..<ye {
                        let row = src + (y - region.y) * srcStride - region.x * 4
                        for x in xs..<xe {
                            let p = row + x * 4
                            let pa = UInt64(p[3])
                            r += UInt64(p[0]) * pa; g += UInt64(p[1]) * pa; b += UInt64(p[2]) * pa; a += pa
                        }
                    }
                }
                let n = UInt64((y1 - y0) * (x1 - x0))
                let d = dst + oy * dstStride + ox * 4
                d[3] = Channel(truncatingIfNeeded: (a + n / 2) / n)
                if a == 0 {
                    d[0] = 0; d[1] = 0; d[2] = 0
                } else if premultipliedOutput {
                    // Σc·α / (max·n)
                    let m = maxChannel * n
                    d[0] = Channel(truncatingIfNeeded: min(maxChannel, (r + m / 2) / m))
                    d[1] = Channel(truncatingIfNeeded: min(maxChannel, (g + m / 2) / m))
                    d[2] = Channel(truncatingIfNeeded: min(maxChannel, (b + m / 2) / m))
                } else {
                    // Σc·α / Σα
                    d[0] = Channel(truncatingIfNeeded: min(maxChannel, (r + a / 2) / a))
                    d[1] = Channel(truncatingIfNeeded: min(maxChannel, (g + a / 2) / a))
                    d[2] = Channel(truncatingIfNeeded: min(maxChannel, (b + a / 2) / a))
                }
            }
        }
    }
}

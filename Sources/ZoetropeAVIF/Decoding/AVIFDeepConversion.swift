import CAVIF
import Zoetrope

/// YUV(A) → RGBA16 by the conversion libavif 0.11 gives RGBA8 frames through libyuv, kept
/// at 16 bits: the same constants (`AVIFLibYUVMatrix`), the same chroma upsampling with the
/// same rounding, luma at libyuv's 16-bit precision, and the result unrounded. Chroma deeper
/// than 8 bits is kept whole, less the mean of what libyuv's truncation to 8 bits drops
/// (0.375 of a step at 10 bits, 0.47 at 12): a frame rounded to 8 bits is then within 1 of
/// the RGBA8 frame (at most 0.95 apart before rounding, libyuv's chroma gains being at most
/// 2), and `convert(to: .eight)` of it is the RGBA8 frame almost everywhere.
///
/// libavif's own 16-bit conversion (floating point, another upsampling) differs from its
/// libyuv one by up to 160 on sharp chroma edges. Where libavif does not use libyuv for
/// RGBA8 either (no libyuv, another libavif version, 12-bit 4:2:2 and 4:4:4, deep
/// monochrome, other matrices), `plan` is nil and both depths use libavif's conversion.
enum AVIFDeepConversion {
    /// How libyuv brings chroma to every pixel for libavif 0.11.
    enum Chroma: Equatable {
        /// 4:4:4: one sample per pixel.
        case full
        /// 4:2:2 (`I422ToARGBMatrixFilter`, `I210ToARGBMatrixFilter`): linear across.
        case linear
        /// 4:2:0 at 8 and 10 bits (`I420ToARGBMatrixFilter`, `I010ToARGBMatrixFilter`): bilinear.
        case bilinear
        /// 4:2:0 at 12 bits (`I012ToARGBMatrix`, which has no filter): nearest sample.
        case nearest
        /// 8-bit monochrome (`I400ToARGBMatrix`): neutral chroma.
        case none
    }

    struct Plan: Equatable {
        var matrix: AVIFLibYUVMatrix
        var chroma: Chroma
    }

    /// Whether the libavif loaded converts RGBA8 frames with libyuv the way `plan` assumes:
    /// libavif 0.11 (the version of the headers, which the loader requires) built with libyuv.
    static let libavifUsesLibYUV: Bool =
        LibAVIF.isLoaded && AVIF_VERSION_MAJOR == 0 && AVIF_VERSION_MINOR == 11 && avifLibYUVVersion() != 0

    /// How libavif converts `image` to RGBA8 through libyuv (its `avifImageYUVToRGBLibYUV`
    /// with the default chroma upsampling); nil when it converts the image itself.
    static func plan(for image: avifImage) -> Plan? {
        guard libavifUsesLibYUV, let matrix = AVIFLibYUVMatrix(image), image.yuvPlanes.0 != nil else { return nil }
        // Chroma planes where the layout has them (libavif refuses the image otherwise).
        if image.yuvFormat != AVIF_PIXEL_FORMAT_YUV400, image.yuvPlanes.1 == nil || image.yuvPlanes.2 == nil { return nil }
        let chroma: Chroma
        switch (image.depth, image.yuvFormat) {
        case (8, AVIF_PIXEL_FORMAT_YUV444), (10, AVIF_PIXEL_FORMAT_YUV444): chroma = .full
        case (8, AVIF_PIXEL_FORMAT_YUV422), (10, AVIF_PIXEL_FORMAT_YUV422): chroma = .linear
        case (8, AVIF_PIXEL_FORMAT_YUV420), (10, AVIF_PIXEL_FORMAT_YUV420): chroma = .bilinear
        case (12, AVIF_PIXEL_FORMAT_YUV420): chroma = .nearest
        case (8, AVIF_PIXEL_FORMAT_YUV400): chroma = .none
        default: return nil
        }
        return Plan(matrix: matrix, chroma: chroma)
    }

    /// Writes `image` as RGBA16 into `buffer` (reshaped to the image), straight or
    /// premultiplied; opaque where the image has no alpha plane.
    static func convert(_ image: UnsafeMutablePointer<avifImage>, plan: Plan, into buffer: inout PixelBuffer, premultiplied: Bool) {
        let im = image.pointee
        let w = Int(im.width), h = Int(im.height), depth = Int(im.depth)
        buffer.format = .rgba16
        buffer.reshape(width: w, height: h)
        guard w > 0, h > 0 else {
            if premultiplied { buffer.format = .rgba16Premultiplied }
            return
        }
        let tables = AVIFDeepTables(matrix: plan.matrix, depth: depth)
        let maxSample = UInt16((1 << depth) - 1)
        // Rows widened to 16 bits (clamped to the depth, so every table index is in range),
        // then chroma upsampled to one sample per pixel.
        let cw = plan.chroma == .full || plan.chroma == .none ? w : (w + 1) / 2
        let scratch = UnsafeMutablePointer<UInt16>.allocate(capacity: 4 * cw + 4 * w)
        defer { scratch.deallocate() }
        let near = (u: scratch, v: scratch + cw), far = (u: scratch + 2 * cw, v: scratch + 3 * cw)
        let y16 = scratch + 4 * cw, a16 = y16 + w, u16 = a16 + w, v16 = u16 + w
        let stride = buffer.bytesPerRow / 2
        let hasAlpha = im.alphaPlane != nil && im.alphaRowBytes > 0
        buffer.bytes.withUnsafeMutableBytes { raw in
            let out = raw.baseAddress!.assumingMemoryBound(to: UInt16.self)
            for row in 0..<h {
                widen(im.yuvPlanes.0, rowBytes: im.yuvRowBytes.0, row: row, count: w, depth: depth, max: maxSample, into: y16)
                switch plan.chroma {
                case .none:
                    break
                case .full:
                    widenChroma(im, row: row, count: w, depth: depth, max: maxSample, into: (u16, v16))
                case .linear:
                    widenChroma(im, row: row, count: cw, depth: depth, max: maxSample, into: near)
                    linear(near.u, into: u16, width: w)
                    linear(near.v, into: v16, width: w)
                case .nearest:
                    widenChroma(im, row: row / 2, count: cw, depth: depth, max: maxSample, into: near)
                    for x in 0..<w { u16[x] = near.u[x / 2]; v16[x] = near.v[x / 2] }
                case .bilinear:
                    // Row 0, and the last of an even height, from their chroma row alone;
                    // row 2k+1 from rows k (¾) and k+1, row 2k+2 from rows k+1 (¾) and k.
                    let chromaRows = (h + 1) / 2
                    let nearRow = row / 2, farRow = row % 2 == 1 ? row / 2 + 1 : row / 2 - 1
                    widenChroma(im, row: nearRow, count: cw, depth: depth, max: maxSample, into: near)
                    if row == 0 || farRow >= chromaRows {
                        linear(near.u, into: u16, width: w)
                        linear(near.v, into: v16, width: w)
                    } else {
                        widenChroma(im, row: farRow, count: cw, depth: depth, max: maxSample, into: far)
                        bilinear(near: near.u, far: far.u, into: u16, width: w)
                        bilinear(near: near.v, far: far.v, into: v16, width: w)
                    }
                }
                if hasAlpha {
                    widen(im.alphaPlane, rowBytes: im.alphaRowBytes, row: row, count: w, depth: depth, max: maxSample, into: a16)
                }
                let o = out + row * stride
                tables.convertRow(y: y16, u: plan.chroma == .none ? nil : u16, v: v16, alpha: hasAlpha ? a16 : nil, into: o, count: w)
            }
        }
        if hasAlpha, im.alphaPremultiplied == AVIF_TRUE {
            // The file's colour is premultiplied already.
            buffer.format = .rgba16Premultiplied
            if !premultiplied { buffer.unpremultiplyAlpha() }
        } else if premultiplied {
            if hasAlpha { buffer.premultiplyAlpha() } else { buffer.format = .rgba16Premultiplied }
        }
    }

    /// Row `row` of a plane at `depth` bits as 16-bit samples, each at most `max`.
    private static func widen(
        _ plane: UnsafeMutablePointer<UInt8>?, rowBytes: UInt32, row: Int, count: Int, depth: Int, max: UInt16,
        into dst: UnsafeMutablePointer<UInt16>
    ) {
        guard let plane else { return }
        let src = UnsafeRawPointer(plane + row * Int(rowBytes))
        if depth == 8 {
            let s = src.assumingMemoryBound(to: UInt8.self)
            for x in 0..<count { dst[x] = UInt16(s[x]) }
        } else {
            let s = src.assumingMemoryBound(to: UInt16.self)
            for x in 0..<count { dst[x] = min(s[x], max) }
        }
    }

    private static func widenChroma(
        _ im: avifImage, row: Int, count: Int, depth: Int, max: UInt16, into dst: (u: UnsafeMutablePointer<UInt16>, v: UnsafeMutablePointer<UInt16>)
    ) {
        widen(im.yuvPlanes.1, rowBytes: im.yuvRowBytes.1, row: row, count: count, depth: depth, max: max, into: dst.u)
        widen(im.yuvPlanes.2, rowBytes: im.yuvRowBytes.2, row: row, count: count, depth: depth, max: max, into: dst.v)
    }

    /// libyuv's `ScaleRowUp2_Linear` with its edges: the first pixel is the first sample,
    /// the last the sample under it, the others ¾ and ¼ of their two nearest, rounded.
    private static func linear(_ s: UnsafeMutablePointer<UInt16>, into d: UnsafeMutablePointer<UInt16>, width: Int) {
        d[0] = s[0]
        var i = 1
        while i < width - 1 {
            let x = (i - 1) / 2, a = UInt32(s[x]), b = UInt32(s[x + 1])
            d[i] = UInt16(i % 2 == 1 ? (3 * a + b + 2) >> 2 : (a + 3 * b + 2) >> 2)
            i += 1
        }
        d[width - 1] = s[(width - 1) / 2]
    }

    /// libyuv's `ScaleRowUp2_Bilinear` for the output row nearer `near`: 9, 3, 3, 1
    /// sixteenths rounded inside, ¾ of `near` and ¼ of `far` at the first and last pixels.
    private static func bilinear(
        near n: UnsafeMutablePointer<UInt16>, far f: UnsafeMutablePointer<UInt16>, into d: UnsafeMutablePointer<UInt16>, width: Int
    ) {
        d[0] = UInt16((3 * UInt32(n[0]) + UInt32(f[0]) + 2) >> 2)
        var i = 1
        while i < width - 1 {
            let x = (i - 1) / 2
            let n0 = UInt32(n[x]), n1 = UInt32(n[x + 1]), f0 = UInt32(f[x]), f1 = UInt32(f[x + 1])
            d[i] = UInt16(i % 2 == 1 ? (9 * n0 + 3 * n1 + 3 * f0 + f1 + 8) >> 4 : (3 * n0 + 9 * n1 + f0 + 3 * f1 + 8) >> 4)
            i += 1
        }
        let last = (width - 1) / 2
        d[width - 1] = UInt16((3 * UInt32(n[last]) + UInt32(f[last]) + 2) >> 2)
    }
}

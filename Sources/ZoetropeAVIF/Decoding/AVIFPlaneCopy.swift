import CAVIF
import Zoetrope

/// A reusable copy of one decoded frame's YUV(A) planes, so the frame can be converted to
/// RGBA while libavif overwrites `decoder.image` with the next frame.
///
/// Unlike `avifImageCopy` (which frees and allocates every plane on every call) the storage
/// is allocated once and reused, and the copied `avifImage` header borrows it.
final class AVIFPlaneCopy {
    private var storage: UnsafeMutableRawBufferPointer?
    /// The copied frame: `source`'s header with plane pointers into `storage`. Valid until the next `copy`.
    private(set) var image = avifImage()

    deinit { storage?.deallocate() }

    /// Bytes held.
    var byteCount: Int { storage?.count ?? 0 }

    /// Calls `body` with the copied frame (for `avifImageYUVToRGB`).
    func withImage<R>(_ body: (UnsafeMutablePointer<avifImage>) throws(AnimatedImageError) -> R) throws(AnimatedImageError) -> R {
        try withUnsafeMutablePointer(to: &image) { (p: UnsafeMutablePointer<avifImage>) throws(AnimatedImageError) -> R in try body(p) }
    }

    /// Copies `source`'s planes (rows of width × sample size, without padding).
    func copy(_ source: UnsafePointer<avifImage>) {
        let s = source.pointee
        let sample = s.depth > 8 ? 2 : 1
        var info = avifPixelFormatInfo()
        avifGetPixelFormatInfo(s.yuvFormat, &info)
        let w = Int(s.width), h = Int(s.height)
        let cw = (w + Int(info.chromaShiftX)) >> Int(info.chromaShiftX)
        let ch = (h + Int(info.chromaShiftY)) >> Int(info.chromaShiftY)
        let hasChroma = info.monochrome == AVIF_FALSE
        // Plane layout: Y, U, V, A, each tightly packed.
        let sizes = [(w, h, true), (cw, ch, hasChroma), (cw, ch, hasChroma), (w, h, s.alphaPlane != nil)]
            .map { $0.2 ? $0.0 * sample * $0.1 : 0 }
        let total = sizes.reduce(0, +)
        if storage == nil || storage!.count < total {
            storage?.deallocate()
            storage = .allocate(byteCount: max(total, 1), alignment: 64)
        }
        let base = storage!.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var copy = s
        // The copy owns nothing libavif may free, and carries no metadata pointers.
        copy.imageOwnsYUVPlanes = AVIF_FALSE
        copy.imageOwnsAlphaPlane = AVIF_FALSE
        copy.icc = avifRWData()
        copy.exif = avifRWData()
        copy.xmp = avifRWData()
        var offset = 0
        func plane(_ src: UnsafeMutablePointer<UInt8>?, _ srcStride: UInt32, width: Int, height: Int) -> (UnsafeMutablePointer<UInt8>?, UInt32) {
            guard let src, width > 0, height > 0 else { return (nil, 0) }
            let row = width * sample, dst = base + offset
            for y in 0..<height { (dst + y * row).update(from: src + y * Int(srcStride), count: row) }
            offset += row * height
            return (dst, UInt32(row))
        }
        (copy.yuvPlanes.0, copy.yuvRowBytes.0) = plane(s.yuvPlanes.0, s.yuvRowBytes.0, width: w, height: h)
        (copy.yuvPlanes.1, copy.yuvRowBytes.1) = hasChroma ? plane(s.yuvPlanes.1, s.yuvRowBytes.1, width: cw, height: ch) : (nil, 0)
        (copy.yuvPlanes.2, copy.yuvRowBytes.2) = hasChroma ? plane(s.yuvPlanes.2, s.yuvRowBytes.2, width: cw, height: ch) : (nil, 0)
        (copy.alphaPlane, copy.alphaRowBytes) = plane(s.alphaPlane, s.alphaRowBytes, width: w, height: h)
        image = copy
    }
}

import CTurboJPEG
import Foundation
import Zoetrope

/// JPEG fixtures made in code with libjpeg-turbo's own compressor, and the reference decode
/// the coder's output is held to.
enum JPEGFixtures {
    /// Compresses packed pixels (`pixelFormat`: `TJPF_RGBA`, `TJPF_GRAY` or `TJPF_CMYK`).
    static func compress(
        _ pixels: [UInt8], width: Int, height: Int, pixelFormat: TJPF = TJPF_RGBA,
        subsampling: TJSAMP = TJSAMP_444, quality: Int32 = 95, progressive: Bool = false
    ) -> Data {
        let handle = tjInitCompress()!
        defer { tjDestroy(handle) }
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let bytesPerPixel = pixelFormat == TJPF_GRAY ? 1 : 4
        let status = tjCompress2(
            handle, pixels, Int32(width), Int32(width * bytesPerPixel), Int32(height),
            Int32(pixelFormat.rawValue), &out, &size, Int32(subsampling.rawValue), quality,
            progressive ? TJFLAG_PROGRESSIVE : 0)
        precondition(status == 0, String(cString: tjGetErrorStr2(handle)))
        defer { tjFree(out) }
        return Data(bytes: out!, count: Int(size))
    }

    /// libjpeg-turbo's own RGBA decode of `jpeg`, with no orientation applied.
    static func reference(_ jpeg: Data) -> PixelBuffer {
        let handle = tjInitDecompress()!
        defer { tjDestroy(handle) }
        var w: Int32 = 0, h: Int32 = 0, s: Int32 = 0, c: Int32 = 0
        return jpeg.withUnsafeBytes { raw in
            let p = raw.bindMemory(to: UInt8.self).baseAddress
            precondition(tjDecompressHeader3(handle, p, UInt(raw.count), &w, &h, &s, &c) == 0)
            var buffer = PixelBuffer(width: Int(w), height: Int(h))
            buffer.bytes.withUnsafeMutableBytes { out in
                precondition(
                    tjDecompress2(
                        handle, p, UInt(raw.count), out.bindMemory(to: UInt8.self).baseAddress,
                        w, w * 4, h, Int32(TJPF_RGBA.rawValue), 0) == 0)
            }
            return buffer
        }
    }

    /// libjpeg-turbo's own RGBA decode of `jpeg` with its warnings allowed (as `djpeg`
    /// shows a damaged file), and the message of its first warning (nil: none).
    static func referenceAllowingWarnings(_ jpeg: Data) -> (pixels: PixelBuffer, warning: String?) {
        let handle = tjInitDecompress()!
        defer { tjDestroy(handle) }
        var w: Int32 = 0, h: Int32 = 0, s: Int32 = 0, c: Int32 = 0
        return jpeg.withUnsafeBytes { raw in
            let p = raw.bindMemory(to: UInt8.self).baseAddress
            let header = tjDecompressHeader3(handle, p, UInt(raw.count), &w, &h, &s, &c)
            precondition(header == 0 || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue))
            var buffer = PixelBuffer(width: Int(w), height: Int(h))
            let status = buffer.bytes.withUnsafeMutableBytes { out in
                tjDecompress2(
                    handle, p, UInt(raw.count), out.bindMemory(to: UInt8.self).baseAddress,
                    w, w * 4, h, Int32(TJPF_RGBA.rawValue), 0)
            }
            precondition(status == 0 || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue))
            return (buffer, status == 0 ? nil : String(cString: tjGetErrorStr2(handle)))
        }
    }

    /// `jpeg` with `bytes` inserted before its first `FF marker` segment (walking the
    /// segments from SOI, so a marker inside a payload is not taken).
    static func inserting(_ bytes: [UInt8], before marker: UInt8, in jpeg: Data) -> Data {
        let b = [UInt8](jpeg)
        var i = 2
        while b[i + 1] != marker { i += 2 + (Int(b[i + 2]) << 8 | Int(b[i + 3])) }
        return Data(b[..<i] + bytes + b[i...])
    }

    /// `jpeg` with an Exif `APP1` segment right after SOI whose IFD0 holds `tags` (tag, type,
    /// count, value), in big-endian ("MM") or little-endian ("II") byte order.
    static func withExif(
        _ jpeg: Data, tags: [(tag: UInt16, type: UInt16, count: UInt32, value: UInt16)],
        bigEndian: Bool = false
    ) -> Data {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] {
            let le = [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
            return bigEndian ? le.reversed() : le
        }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += u16(42) + u32(8) + u16(UInt16(tags.count))
        for t in tags { tiff += u16(t.tag) + u16(t.type) + u32(t.count) + u16(t.value) + [0, 0] }
        tiff += u32(0)  // no next IFD
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return jpeg.prefix(2) + Data(segment) + jpeg.dropFirst(2)
    }

    /// `jpeg` with an Exif orientation tag of `value`.
    static func withOrientation(_ jpeg: Data, _ value: Int, bigEndian: Bool = false) -> Data {
        withExif(jpeg, tags: [(0x010F, 2, 1, 0), (0x0112, 3, 1, UInt16(value))], bigEndian: bigEndian)
    }

    /// A smooth, asymmetric RGBA picture (no two pixels share a colour along a row or column
    /// in the sizes used), kind to JPEG.
    static func gradient(width: Int, height: Int) -> [UInt8] {
        var out = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                out += [
                    UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)),
                    UInt8((x + 2 * y) * 255 / max(1, width + 2 * height - 3)), 255,
                ]
            }
        }
        return out
    }

    /// Four flat quadrants (top-left red, top-right green, bottom-left blue, bottom-right
    /// white), each a whole number of 8×8 blocks.
    static func quadrants(width: Int = 32, height: Int = 16) -> [UInt8] {
        var out = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                switch (x < width / 2, y < height / 2) {
                case (true, true): out += [255, 0, 0, 255]
                case (false, true): out += [0, 255, 0, 255]
                case (true, false): out += [0, 0, 255, 255]
                case (false, false): out += [255, 255, 255, 255]
                }
            }
        }
        return out
    }

    /// The largest difference of any channel between `buffer` and packed RGBA `pixels`.
    static func maxDifference(_ buffer: PixelBuffer, _ pixels: [UInt8]) -> Int {
        zip(buffer.packedBytes, pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }
}

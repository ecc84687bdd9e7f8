import Zoetrope

extension PixelBuffer {
    /// The pixel with colour premultiplied by alpha, so that fully transparent pixels
    /// compare equal whatever colour they carry (as the conformance checker compares).
    func premultipliedPixel(x: Int, y: Int) -> [UInt8] {
        PixelBuffer.premultiplied(pixel(x: x, y: y))
    }

    /// One RGBA value with its colour premultiplied by alpha.
    static func premultiplied(_ p: [UInt8]) -> [UInt8] {
        let a = Int(p[3])
        return [
            UInt8((Int(p[0]) * a + 127) / 255), UInt8((Int(p[1]) * a + 127) / 255),
            UInt8((Int(p[2]) * a + 127) / 255), p[3],
        ]
    }

    /// The largest per-channel difference from `other`'s bytes (same shape).
    func maxChannelDifference(from other: [UInt8]) -> Int {
        precondition(bytes.count == other.count)
        var worst = 0
        for i in bytes.indices { worst = max(worst, abs(Int(bytes[i]) - Int(other[i]))) }
        return worst
    }
}

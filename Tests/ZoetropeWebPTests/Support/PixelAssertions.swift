import Zoetrope

extension PixelBuffer {
    /// The pixel with colour premultiplied by alpha, so that fully transparent pixels
    /// compare equal whatever colour they carry (as the conformance checker compares).
    func premultipliedPixel(x: Int, y: Int) -> [UInt8] {
        let p = pixel(x: x, y: y)
        let a = Int(p[3])
        return [UInt8((Int(p[0]) * a + 127) / 255), UInt8((Int(p[1]) * a + 127) / 255),
                UInt8((Int(p[2]) * a + 127) / 255), p[3]]
    }
}

/// The largest per-channel difference between two RGBA8 rasters of the same size.
func maxChannelDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    precondition(a.count == b.count)
    var worst = 0
    for i in a.indices { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
    return worst
}

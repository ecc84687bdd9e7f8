/// Chunk type codes as big-endian `UInt32`s, so the walker compares integers, not strings.
enum PNGChunkType {
    static func code(_ s: StaticString) -> UInt32 {
        let p = s.utf8Start
        return UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
    }

    static let IHDR = code("IHDR")
    static let PLTE = code("PLTE")
    static let tRNS = code("tRNS")
    static let IDAT = code("IDAT")
    static let IEND = code("IEND")
    static let acTL = code("acTL")
    static let fcTL = code("fcTL")
    static let fdAT = code("fdAT")

    /// The four ASCII characters of a code, for messages.
    static func name(_ code: UInt32) -> String {
        let bytes = [UInt8(code >> 24), UInt8(code >> 16 & 0xFF), UInt8(code >> 8 & 0xFF), UInt8(code & 0xFF)]
        return String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
    }
}

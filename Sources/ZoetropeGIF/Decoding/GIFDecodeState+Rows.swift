import CGIF
import Zoetrope

extension GIFDecodeState {
    /// Writes `count` palette indices as RGBA words, skipping the transparent index.
    @inline(__always)
    static func drawRow(
        _ src: UnsafePointer<UInt8>, to dst: UnsafeMutableRawPointer, count: Int,
        lut: UnsafePointer<UInt32>, transparent: Int?
    ) {
        if let transparent {
            let t = UInt8(truncatingIfNeeded: transparent)
            for j in 0..<count {
                let idx = src[j]
                if idx != t { dst.storeBytes(of: lut[Int(idx)], toByteOffset: j &* 4, as: UInt32.self) }
            }
        } else {
            for j in 0..<count {
                dst.storeBytes(of: lut[Int(src[j])], toByteOffset: j &* 4, as: UInt32.self)
            }
        }
    }

    /// Decodes frame `record` again up to its row `ordinal` (in decoding order), whose LZW
    /// data stops early, twice with different fills: the decoded pixels are where both agree.
    static func partialRow(record: GIFFrameRecord, ordinal: Int, bytes: UnsafeRawBufferPointer) throws -> (pixels: [UInt8], count: Int) {
        let width = record.rect.width
        var rows: [[UInt8]] = []
        for fill: UInt8 in [0x00, 0xFF] {
            let handle = try GIFLibHandle(bytes: bytes)
            try handle.beginImage(at: record.descriptorOffset)
            var row = [UInt8](repeating: fill, count: width)
            row.withUnsafeMutableBufferPointer { buffer in
                for _ in 0..<ordinal where handle.readLine(buffer.baseAddress!, count: width) != nil { return }
                buffer.update(repeating: fill)
                _ = handle.readLine(buffer.baseAddress!, count: width)
            }
            rows.append(row)
        }
        var k = 0
        while k < width, rows[0][k] == rows[1][k] { k += 1 }
        return (rows[0], k)
    }

    /// Says which frame an error is about.
    static func frameError(_ error: AnimatedImageError, frame: Int) -> AnimatedImageError {
        switch error {
        case .invalidData(let format, let reason): .invalidData(format: format, reason: "frame \(frame): \(reason)")
        case .codecFailure(let format, let library, let message):
            .codecFailure(format: format, library: library, message: "frame \(frame): \(message)")
        default: error
        }
    }
}

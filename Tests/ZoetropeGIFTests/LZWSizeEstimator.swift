/// The size in bytes of GIF's LZW coding of some indices, computed by running the same
/// dictionary the encoder builds (without writing it): the tests' measure of what the LZW
/// matcher saves.
enum LZWSizeEstimator {
    /// Bytes of LZW data for `indices` at `minimumCodeSize` bits (2…8), sub-block framing included.
    static func byteCount(_ indices: [UInt8], minimumCodeSize: Int) -> Int {
        guard !indices.isEmpty else { return 0 }
        let clear = 1 << minimumCodeSize
        var next = clear + 2
        var codeSize = minimumCodeSize + 1
        var bits = codeSize  // the initial clear code
        // Dictionary: (prefix << 8 | byte) → code, open addressing over 8192 slots.
        var keys = [Int32](repeating: -1, count: 8192)
        var values = [Int16](repeating: 0, count: 8192)
        var prefix = Int(indices[0])
        for k in 1..<indices.count {
            let byte = Int(indices[k])
            let key = Int32(prefix << 8 | byte)
            var slot = Int((UInt32(bitPattern: key) &* 0x9E37_79B1) >> 19)
            var found = -1
            while keys[slot] != -1 {
                if keys[slot] == key { found = Int(values[slot]); break }
                slot = (slot + 1) & 8191
            }
            if found >= 0 { prefix = found; continue }
            bits += codeSize
            if next < 4096 {
                keys[slot] = key
                values[slot] = Int16(next)
                next += 1
                if next > (1 << codeSize) && codeSize < 12 { codeSize += 1 }
            } else {
                bits += codeSize  // a clear code, then a fresh dictionary
                for i in 0..<keys.count { keys[i] = -1 }
                next = clear + 2
                codeSize = minimumCodeSize + 1
            }
            prefix = byte
        }
        bits += 2 * codeSize  // the last code and the end code
        let bytes = (bits + 7) / 8
        return bytes + (bytes + 254) / 255 + 1
    }
}

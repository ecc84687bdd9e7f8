import Foundation

/// A gzip member that inflates to about `inflatedBytes` zero bytes from a small body: one
/// fixed-Huffman DEFLATE block (RFC 1951 §3.2.6) of a literal 0 followed by copies of
/// length 258 at distance 1, 13 bits each. The trailer's CRC is not computed (a client
/// that checks it reads the whole bomb first, which is what a limit must prevent).
public enum GzipBomb {
    public static func make(inflatedBytes: Int) -> Data {
        var bits = BitWriter()
        bits.value(1, count: 1)  // BFINAL
        bits.value(1, count: 2)  // BTYPE 01: fixed Huffman
        bits.code(0x30, length: 8)  // literal 0
        let copies = max(1, (inflatedBytes - 1) / 258)
        // 11 bits so far: one copy makes 24, byte-aligned; then every 8 copies are the same
        // 13 bytes, written whole.
        bits.copy()
        var group = BitWriter()
        for _ in 0..<8 { group.copy() }
        var body = bits.bytes()
        let groups = (copies - 1) / 8
        body.reserveCapacity(body.count + groups * 13 + 16)
        for _ in 0..<groups { body += group.bytes() }
        var tail = BitWriter()
        for _ in 0..<((copies - 1) % 8) { tail.copy() }
        tail.code(0, length: 7)  // end of block
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        out += body + tail.bytes()
        out += [0, 0, 0, 0] + withUnsafeBytes(of: UInt32(truncatingIfNeeded: inflatedBytes).littleEndian, Array.init)
        return Data(out)
    }

    /// DEFLATE's bit order: values least significant bit first, Huffman codes most first.
    private struct BitWriter {
        private var out: [UInt8] = []
        private var current: UInt8 = 0
        private var filled = 0

        mutating func bit(_ b: Int) {
            current |= UInt8(b & 1) << filled
            filled += 1
            if filled == 8 {
                out.append(current)
                current = 0
                filled = 0
            }
        }

        mutating func value(_ v: Int, count: Int) {
            for i in 0..<count { bit(v >> i) }
        }

        mutating func code(_ c: Int, length: Int) {
            for i in (0..<length).reversed() { bit(c >> i) }
        }

        /// A copy of 258 bytes at distance 1: length symbol 285, distance symbol 0.
        mutating func copy() {
            code(0b1100_0101, length: 8)
            code(0, length: 5)
        }

        func bytes() -> [UInt8] { filled > 0 ? out + [current] : out }
    }
}

/// A bounds-checked reader over the file's bytes for the indexing pass. Every read
/// returns nil (or false) instead of reading past the end.
struct GIFByteCursor {
    let bytes: UnsafeRawBufferPointer
    var position: Int

    init(_ bytes: UnsafeRawBufferPointer, position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    var remaining: Int { bytes.count - position }

    mutating func readByte() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    /// A little-endian 16-bit value.
    mutating func readUInt16() -> Int? {
        guard remaining >= 2 else { return nil }
        defer { position += 2 }
        return Int(bytes[position]) | Int(bytes[position + 1]) << 8
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, remaining >= count else { return false }
        position += count
        return true
    }

    /// Skips a chain of data sub-blocks up to and including its zero-length terminator.
    /// Returns false when the file ends before the terminator.
    mutating func skipSubBlocks() -> Bool {
        let count = bytes.count
        var p = position
        while p < count {
            let size = Int(bytes[p])
            p += 1
            if size == 0 {
                position = p
                return true
            }
            p += size
        }
        position = count
        return false
    }

    /// Walks a chain of data sub-blocks up to and including its zero-length terminator,
    /// handing each block's bytes to `body` with its position in the chain. Returns false
    /// when the file ends before the terminator.
    mutating func readSubBlocks(_ body: (_ block: UnsafeRawBufferPointer, _ ordinal: Int) -> Void) -> Bool {
        var ordinal = 0
        while true {
            guard let size = readByte() else { return false }
            if size == 0 { return true }
            guard remaining >= Int(size) else { return false }
            body(UnsafeRawBufferPointer(rebasing: bytes[position..<position + Int(size)]), ordinal)
            position += Int(size)
            ordinal += 1
        }
    }
}

/// Zoetrope's own copy of an AVIF file. libavif reads from it without copying, so it must
/// live as long as the decoder; it is also where hidden tracks are patched.
final class AVIFFileBytes {
    let buffer: UnsafeMutableRawBufferPointer

    /// Copies `bytes` into a buffer of `count` bytes (at least as many), zero-filling the rest.
    init(copying bytes: UnsafeRawBufferPointer, count: Int) {
        precondition(count >= bytes.count)
        buffer = .allocate(byteCount: max(count, 1), alignment: 16)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        if let base = bytes.baseAddress { buffer.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
    }

    deinit { buffer.deallocate() }

    var count: Int { buffer.count }

    /// Renames the box at `offset` to `free`, so readers skip it; its bytes and every
    /// offset in the file stay where they were.
    func hideBox(at offset: Int) {
        precondition(offset >= 0 && offset + 8 <= buffer.count, "box header outside the file")
        for (i, c) in "free".utf8.enumerated() { buffer[offset + 4 + i] = c }
    }
}

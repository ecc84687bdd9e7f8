/// Zoetrope's own copy of an AVIF file. libavif reads from it without copying, so it must
/// live as long as the decoder; it is also where hidden tracks are patched and a box cut
/// short by the end of the file is clamped. It holds exactly the file's bytes: never more
/// than the file, whatever its headers claim.
final class AVIFFileBytes {
    let buffer: UnsafeMutableRawBufferPointer

    /// Copies `bytes`.
    init(copying bytes: UnsafeRawBufferPointer) {
        buffer = .allocate(byteCount: max(bytes.count, 1), alignment: 16)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        if let base = bytes.baseAddress { buffer.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
    }

    deinit { buffer.deallocate() }

    var count: Int { buffer.count }

    /// Rewrites the size of the top-level `box`, which the end of the file cuts short, so
    /// that it ends where the file does. libavif 0.11 refuses a top-level box that reaches
    /// past the end of its input; with the box clamped it parses the file, and samples that
    /// lie past the end are found (and left out) by their extents instead.
    func clampBox(_ box: ISOBox) {
        let size = buffer.count - box.start
        let header = box.payloadStart - box.start
        precondition(box.start >= 0 && size >= header && (header == 8 || header == 16), "a cut box inside the file")
        if header == 16 {
            // 64-bit size after the 32-bit size 1 and the type.
            for i in 0..<8 { buffer[box.start + 8 + i] = UInt8(truncatingIfNeeded: UInt64(size) >> UInt64(56 - 8 * i)) }
        } else {
            // A 32-bit declared size was larger, so the real size fits too.
            for i in 0..<4 { buffer[box.start + i] = UInt8(truncatingIfNeeded: UInt32(size) >> UInt32(24 - 8 * i)) }
        }
    }

    /// Writes `patch.bytes` over as many bytes at `patch.offset`.
    func apply(_ patch: AVIFIndex.Patch) {
        precondition(patch.offset >= 0 && patch.offset + patch.bytes.count <= buffer.count, "patch outside the file")
        for (i, b) in patch.bytes.enumerated() { buffer[patch.offset + i] = b }
    }

    /// Renames the box at `offset` to `free`, so readers skip it; its bytes and every
    /// offset in the file stay where they were.
    func hideBox(at offset: Int) {
        precondition(offset >= 0 && offset + 8 <= buffer.count, "box header outside the file")
        for (i, c) in "free".utf8.enumerated() { buffer[offset + 4 + i] = c }
    }
}

import CAVIF

/// libavif's reader over Zoetrope's copy of the file (`AVIFFileBytes`), with a size hint
/// that may be larger than the bytes held.
///
/// A sequence whose `mdat` the end of the file cuts short has sample tables pointing past
/// the end; libavif 0.11 refuses those unless its I/O's `sizeHint` covers them. Instead of
/// padding the copy out to the size the box claims (which let a 1.9 KB file cost 1 GiB),
/// this reader reports the claimed size as the hint and serves only the bytes that exist:
/// a read reaching past them is cut short, so libavif reports the frames there as
/// truncated (and Zoetrope never offers them; see `makeAVIFFrameSource`). The hint is a
/// number only: libavif uses it for sanity checks, and reads tracks' samples in place
/// (`persistent`), without copying them.
enum AVIFFileIO {
    /// A reader for `file` reporting `sizeHint` (at least the file's size). The caller owns
    /// the result (no `destroy` is set, so libavif does not free it), keeps `file` alive
    /// while libavif may read, and releases it with `deallocate`.
    static func make(file: AVIFFileBytes, sizeHint: Int) -> UnsafeMutablePointer<avifIO> {
        let io = UnsafeMutablePointer<avifIO>.allocate(capacity: 1)
        io.initialize(to: avifIO())
        io.pointee.read = { io, _, offset, size, out in
            guard let io, let out, let context = io.pointee.data else { return AVIF_RESULT_IO_ERROR }
            let file = Unmanaged<AVIFFileBytes>.fromOpaque(context).takeUnretainedValue()
            let count = UInt64(file.count)
            guard offset <= count else { return AVIF_RESULT_IO_ERROR }
            let available = min(UInt64(size), count - offset)
            out.pointee.data = UnsafePointer(file.buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + Int(offset))
            out.pointee.size = Int(available)
            return AVIF_RESULT_OK
        }
        io.pointee.sizeHint = UInt64(max(sizeHint, file.count))
        io.pointee.persistent = AVIF_TRUE
        io.pointee.data = Unmanaged.passUnretained(file).toOpaque()
        return io
    }

    /// Frees a reader made by `make` (after the decoder using it is destroyed).
    static func deallocate(_ io: UnsafeMutablePointer<avifIO>) {
        io.deinitialize(count: 1)
        io.deallocate()
    }
}

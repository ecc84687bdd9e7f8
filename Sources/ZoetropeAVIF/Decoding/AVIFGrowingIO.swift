import CAVIF
import Zoetrope

/// libavif's reader over the bytes an incremental session has received so far
/// (`IncrementalBytePrefix`), with Zoetrope's rewrites of the metadata laid over them.
///
/// A read of bytes that have not arrived returns `AVIF_RESULT_WAITING_ON_IO` (libavif's
/// "call again later"); the one exception is libavif's 32-byte look at a box header, which
/// gets the bytes there are (the header itself is in: the session only parses once its own
/// scan has seen the boxes complete). The received bytes may move when the session's buffer
/// grows, so the reader is not `persistent`: libavif copies each sample it reads (a memcpy of
/// the compressed sample, small next to its AV1 decode), and the owner sets `prefix` to the
/// bytes received before each call into libavif. The rewrites (`AVIFIndex.patches` and the
/// hidden tracks, both inside `meta`/`moov`) are the ones the whole-file source applies to
/// its copy; a read that overlaps one is served from a scratch copy.
final class AVIFGrowingIO {
    /// The bytes received; set by the owner before each libavif call (under its lock).
    var prefix: IncrementalBytePrefix
    /// Bytes that replace the file's own, sorted by offset.
    let overlays: [AVIFIndex.Patch]
    /// Where a read that overlaps an overlay is assembled (valid until the next read).
    private var scratch: UnsafeMutableRawBufferPointer?

    init(prefix: IncrementalBytePrefix, overlays: [AVIFIndex.Patch]) {
        self.prefix = prefix
        self.overlays = overlays.sorted { $0.offset < $1.offset }
    }

    deinit { scratch?.deallocate() }

    /// The rewrites the whole-file source makes to its copy of a file with this structure
    /// (every one lies inside `meta` or `moov`).
    static func overlays(for container: AVIFIndex) -> [AVIFIndex.Patch] {
        container.patches + container.tracksToHide.map { AVIFIndex.Patch(offset: $0.box.start + 4, bytes: Array("free".utf8)) }
    }

    /// A reader for libavif over this object (which must outlive the decoder using it);
    /// free it with `AVIFFileIO.deallocate` after the decoder. The file's size is not known
    /// while it arrives, so the size hint libavif checks what the file claims against (item
    /// extents it would allocate for, sample offsets) is the most the session may hold,
    /// `limits.maxAllocationBytes` (the bytes received are checked against it on every append).
    func makeIO(limits: Limits) -> UnsafeMutablePointer<avifIO> {
        let io = UnsafeMutablePointer<avifIO>.allocate(capacity: 1)
        io.initialize(to: avifIO())
        io.pointee.read = { io, _, offset, size, out in
            guard let io, let out, let context = io.pointee.data else { return AVIF_RESULT_IO_ERROR }
            return Unmanaged<AVIFGrowingIO>.fromOpaque(context).takeUnretainedValue().read(offset: offset, size: size, into: out)
        }
        io.pointee.sizeHint = UInt64(max(1, limits.maxAllocationBytes))
        io.pointee.persistent = AVIF_FALSE
        io.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        return io
    }

    private func read(offset: UInt64, size: Int, into out: UnsafeMutablePointer<avifROData>) -> avifResult {
        let count = prefix.count
        guard offset <= UInt64(count) else { return AVIF_RESULT_WAITING_ON_IO }
        let start = Int(offset)
        let length: Int
        if size <= count - start {
            length = size
        } else if size <= 32, start < count {
            length = count - start  // a box header look-ahead: the header is in
        } else {
            return AVIF_RESULT_WAITING_ON_IO
        }
        let source = UnsafeRawPointer(prefix.storage.base + start)
        let end = start + length
        let touching = overlays.filter { $0.offset < end && $0.offset + $0.bytes.count > start }
        guard !touching.isEmpty else {
            out.pointee.data = source.assumingMemoryBound(to: UInt8.self)
            out.pointee.size = length
            return AVIF_RESULT_OK
        }
        if (scratch?.count ?? 0) < length {
            scratch?.deallocate()
            scratch = .allocate(byteCount: max(length, 1), alignment: 16)
        }
        let copy = scratch!
        copy.baseAddress!.copyMemory(from: source, byteCount: length)
        for patch in touching {
            for (i, byte) in patch.bytes.enumerated() where (start..<end).contains(patch.offset + i) {
                copy[patch.offset + i - start] = byte
            }
        }
        out.pointee.data = UnsafePointer(copy.baseAddress!.assumingMemoryBound(to: UInt8.self))
        out.pointee.size = length
        return AVIF_RESULT_OK
    }
}

/// An image whose LZW scan the whole-file index runs after walking the blocks, on several
/// threads (`GIFIndex.parse`): where its data starts and what the scan needs.
struct GIFDeferredScan: Sendable {
    var image: GIFPendingImage
    /// Offset of the image's first data sub-block's size byte (just after the code size).
    var dataStart: Int
    var minimumCodeSize: Int
    var pixelCount: Int

    /// Scans the image's data sub-blocks in `bytes` (the whole file) with `scan`.
    func run(_ bytes: UnsafeRawBufferPointer, with scan: inout GIFCodeScan) -> GIFCodeScan.Result {
        scan.begin(minimumCodeSize: minimumCodeSize, pixelCount: pixelCount, transparentIndex: image.record.transparentIndex)
        var p = dataStart
        // The block walk already found every sub-block inside the file.
        while p < bytes.count, !scan.finished {
            let size = Int(bytes[p])
            guard size > 0, p + 1 + size <= bytes.count else { break }
            scan.feed(UnsafeRawBufferPointer(rebasing: bytes[(p + 1)..<(p + 1 + size)]))
            p += 1 + size
        }
        return scan.result
    }
}

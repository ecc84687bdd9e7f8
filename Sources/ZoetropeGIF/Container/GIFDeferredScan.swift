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
        scan.begin(
            minimumCodeSize: minimumCodeSize, pixelCount: pixelCount,
            transparentIndex: image.record.transparentIndex, colorCount: image.colorCount)
        // The block walk already found every sub-block inside the file.
        scan.feedSubBlocks(bytes, from: dataStart, upTo: bytes.count)
        if scan.needsExactScan {
            scan.rescanExactly(bytes, dataStart: dataStart, end: bytes.count)
        }
        return scan.result
    }
}

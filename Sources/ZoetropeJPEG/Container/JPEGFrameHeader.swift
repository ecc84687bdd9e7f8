import Zoetrope

/// A JPEG's frame header (SOFn): the size, each component's sampling factors, and the coding.
struct JPEGFrameHeader {
    struct Component {
        var id: UInt8
        var horizontal: Int
        var vertical: Int
        /// The quantisation table the component uses (0…3).
        var quantTable: Int
    }

    var size: PixelSize
    var components: [Component]
    var isProgressive: Bool
    /// Arithmetic coding (SOF9–SOF11): no lower bound on the bits a block takes.
    var isArithmetic: Bool

    /// The fewest bytes of entropy-coded data that can fill the frame with Huffman coding:
    /// every block of every component codes at least a DC symbol (1 bit, in a progressive
    /// file's first DC scan) and, in a sequential file, an end-of-block (1 bit more). An
    /// arithmetic-coded frame can be smaller than any such bound: 0.
    var minimumScanBytes: Int {
        guard !isArithmetic else { return 0 }
        let maxH = components.map(\.horizontal).max() ?? 1, maxV = components.map(\.vertical).max() ?? 1
        var blocks = 0
        for c in components {
            // The component's samples (rounded up), in 8×8 blocks (rounded up).
            let width = (size.width * c.horizontal + maxH - 1) / maxH
            let height = (size.height * c.vertical + maxV - 1) / maxV
            blocks += ((width + 7) / 8) * ((height + 7) / 8)
        }
        return blocks * (isProgressive ? 1 : 2) / 8
    }
}

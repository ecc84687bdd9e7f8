/// A check of one image's LZW code stream during the indexing pass, without producing
/// pixels: it follows the code width and the next free table entry exactly as giflib does,
/// and the length of each entry's string, so it knows when the image's pixels are complete.
///
/// It finds the two things giflib does not report: a code past the next free table entry
/// (giflib makes up pixels for it; Chromium drops the frame) and which palette indices the
/// image uses (every index in the output is a literal code read before the pixels are
/// complete), so a frame drawing colours its table does not have is known up front.
///
/// It is fed one data sub-block at a time and keeps its state between them, so an image
/// whose bytes arrive in pieces is scanned once. Cost: one pass over the compressed bytes,
/// a 16 KB table reused across frames.
struct GIFCodeScan {
    /// What the scan found in one image.
    struct Result {
        /// The first code past the next free table entry, and that entry.
        var badCode: (code: Int, nextFree: Int)?
        /// The highest palette index the image draws (its transparent index aside); -1 for none.
        var highestIndex = -1
    }

    /// What the scan has found in the current image so far.
    private(set) var result = Result()
    /// The scan needs no more codes: the image is full, the end code came, a bad code came,
    /// or the image's codes are not checked at all.
    private(set) var finished = true

    /// String length of every table entry (literals are 1).
    private let lengths = GIFCodeLengths()
    private var minimumCodeSize = 0, transparent = -1, pixelCount = 0
    private var width = 0, next = 0, previous = -1, produced = 0
    private var bits: UInt32 = 0, bitCount = 0

    /// Starts a new image (just after its LZW minimum code size byte). `pixelCount` is the
    /// image's width × height. giflib accepts code sizes 0 and 1, whose width rules are its
    /// own, and an image without pixels decodes nothing: their codes are not checked.
    mutating func begin(minimumCodeSize: Int, pixelCount: Int, transparentIndex: Int?) {
        result = Result()
        guard (2...8).contains(minimumCodeSize), pixelCount > 0 else {
            finished = true
            return
        }
        finished = false
        self.minimumCodeSize = minimumCodeSize
        self.pixelCount = pixelCount
        transparent = transparentIndex ?? -1
        width = minimumCodeSize + 1
        next = (1 << minimumCodeSize) + 2
        previous = -1
        produced = 0
        bits = 0
        bitCount = 0
    }

    /// Scans the bytes of the image's next data sub-block.
    mutating func feed(_ block: UnsafeRawBufferPointer) {
        guard !finished, block.count > 0 else { return }
        let minimumCodeSize = self.minimumCodeSize, pixelCount = self.pixelCount, transparent = self.transparent
        let clear = 1 << minimumCodeSize, end = clear + 1
        var width = self.width, next = self.next, previous = self.previous, produced = self.produced
        // 64 bits of look-ahead, refilled a byte at a time only when fewer than 12 (the
        // widest code) are left: the inner loop takes whole codes without a per-byte step.
        var bits = UInt64(self.bits), bitCount = self.bitCount, highest = result.highestIndex
        var mask = (UInt64(1) << UInt64(width)) - 1
        var finished = false, badCode: (code: Int, nextFree: Int)?
        let length = lengths.entries
        // The string length of `previous` (what the table holds for it), kept in a register.
        var previousLength: Int32 = previous < 0 ? 0 : previous < clear ? 1 : length[previous]
        let bytes = block.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var i = 0
        let count = block.count
        scan: while true {
            while bitCount <= 56, i < count {
                bits |= UInt64(bytes[i]) << UInt64(bitCount)
                bitCount += 8
                i += 1
            }
            guard bitCount >= width else { break }
            while bitCount >= width {
                let code = Int(bits & mask)
                bits >>= UInt64(width)
                bitCount -= width
                var emitted: Int32
                if code > end {
                    // A table code, the common case once the table fills.
                    if previous >= 0, code < next {
                        emitted = length[code]
                    } else if previous >= 0, code == next, next < 4096 {
                        emitted = previousLength &+ 1
                    } else {
                        badCode = (code, next)
                        finished = true
                        break scan
                    }
                } else if code < clear {
                    emitted = 1
                    if code != transparent, code > highest { highest = code }
                } else if code == clear {
                    width = minimumCodeSize + 1
                    mask = (UInt64(1) << UInt64(width)) - 1
                    next = clear + 2
                    previous = -1
                    continue
                } else {
                    // The end code.
                    finished = true
                    break scan
                }
                if previous >= 0, next < 4096 {
                    // The new entry is the previous string plus one pixel.
                    length[next] = previousLength &+ 1
                    next += 1
                    if next == 1 << width, width < 12 {
                        width += 1
                        mask = (UInt64(1) << UInt64(width)) - 1
                    }
                }
                previousLength = emitted
                previous = code
                produced += Int(emitted)
                if produced >= pixelCount {
                    // giflib reads no further code once the image is full.
                    finished = true
                    break scan
                }
            }
        }
        self.width = width
        self.next = next
        self.previous = previous
        self.produced = produced
        // Fewer than 12 bits are left unless the scan stopped early (then they no longer matter).
        self.bits = UInt32(truncatingIfNeeded: bits)
        self.bitCount = min(bitCount, 32)
        self.finished = finished
        result.highestIndex = highest
        if let badCode { result.badCode = badCode }
    }
}

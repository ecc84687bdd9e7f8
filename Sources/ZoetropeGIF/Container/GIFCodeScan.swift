/// A check of one image's LZW code stream during the indexing pass, without producing
/// pixels: it follows the code width and the next free table entry exactly as giflib does,
/// and the length of each entry's string, so it knows when the image's pixels are complete.
///
/// It finds the two things giflib does not report: a code past the next free table entry
/// (giflib makes up pixels for it; Chromium drops the frame) and which palette indices the
/// image uses (every index in the output is a literal code read before the pixels are
/// complete), so a frame drawing colours its table does not have is known up front.
/// Cost: one pass over the compressed bytes, a 16 KB table reused across frames.
struct GIFCodeScan {
    /// What the scan found in one image.
    struct Result {
        /// The chain of sub-blocks ends with its terminator inside the file.
        var complete = true
        /// The first code past the next free table entry, and that entry.
        var badCode: (code: Int, nextFree: Int)?
        /// The highest palette index the image draws (its transparent index aside); -1 for none.
        var highestIndex = -1
    }

    /// String length of every table entry (literals are 1).
    private var lengths = [Int32](repeating: 1, count: 4096)

    /// Scans the sub-blocks at `cursor` (just after the LZW minimum code size byte) up to and
    /// including their terminator. `pixelCount` is the image's width × height.
    mutating func scan(_ cursor: inout GIFByteCursor, minimumCodeSize: Int, pixelCount: Int,
                       transparentIndex: Int?) -> Result {
        var result = Result()
        // giflib accepts code sizes 0 and 1, whose width rules are its own; the format says 2–8.
        guard (2...8).contains(minimumCodeSize), pixelCount > 0 else {
            result.complete = cursor.skipSubBlocks()
            return result
        }
        let clear = 1 << minimumCodeSize, end = clear + 1
        let transparent = transparentIndex ?? -1
        var width = minimumCodeSize + 1, next = clear + 2, previous = -1
        var produced = 0
        var bits: UInt32 = 0, bitCount = 0
        var finished = false
        lengths.withUnsafeMutableBufferPointer { length in
            result.complete = cursor.readSubBlocks { block, _ in
                guard !finished else { return }
                for byte in block {
                    bits |= UInt32(byte) << UInt32(bitCount)
                    bitCount += 8
                    while bitCount >= width {
                        let code = Int(bits & ((1 << UInt32(width)) - 1))
                        bits >>= UInt32(width)
                        bitCount -= width
                        if code == clear {
                            width = minimumCodeSize + 1
                            next = clear + 2
                            previous = -1
                            continue
                        }
                        if code == end {
                            finished = true
                            return
                        }
                        var emitted: Int32
                        if code < clear {
                            emitted = 1
                            if code != transparent, code > result.highestIndex { result.highestIndex = code }
                        } else if previous >= 0, code < next {
                            emitted = length[code]
                        } else if previous >= 0, code == next, next < 4096 {
                            emitted = length[previous] &+ 1
                        } else {
                            result.badCode = (code, next)
                            finished = true
                            return
                        }
                        if previous >= 0, next < 4096 {
                            length[next] = length[previous] &+ 1
                            next += 1
                            if next == 1 << width, width < 12 { width += 1 }
                        }
                        previous = code
                        produced += Int(emitted)
                        if produced >= pixelCount {
                            // giflib reads no further code once the image is full.
                            finished = true
                            return
                        }
                    }
                }
            }
        }
        return result
    }
}

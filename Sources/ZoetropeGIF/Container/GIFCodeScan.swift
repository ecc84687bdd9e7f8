/// A check of one image's LZW code stream during the indexing pass, without producing
/// pixels. It finds the two things giflib does not report: a code past the next free table
/// entry (giflib makes up pixels for it; Chromium drops the frame) and a palette index the
/// image's colour table lacks (every index in the output is a literal code read before the
/// pixels are complete), so such a frame is known up front.
///
/// Both only count before the image's last pixel, as giflib reads no code after it. Knowing
/// where that is means following every table entry's string length, which is most of the
/// work, so the scan first reads the codes the quick way: the code width and the next free
/// entry only, as giflib follows them, up to the end code. Well-formed data never has a
/// code to question there, and that ends it. When a questionable code comes, the exact way
/// decides (`needsExactScan`, `rescanExactly`): the image's codes again from its first
/// sub-block, with string lengths, stopping at its last pixel.
///
/// It is fed one data sub-block at a time and keeps its state between them, so an image
/// whose bytes arrive in pieces is scanned once (or twice, from its start, for a
/// questionable code). Cost: one pass over the compressed bytes, a 16 KB table reused
/// across frames.
struct GIFCodeScan {
    /// What the scan found in one image.
    struct Result {
        /// The first code past the next free table entry, and that entry.
        var badCode: (code: Int, nextFree: Int)?
        /// The highest palette index the image draws (its transparent index aside) when it is
        /// outside the image's colour table; otherwise -1 or an index inside the table.
        var highestIndex = -1
    }

    /// What the scan has found in the current image so far.
    private(set) var result = Result()
    /// The scan needs no more codes: the image is full, the end code came, a bad code came,
    /// or the image's codes are not checked at all.
    private(set) var finished = true
    /// The quick read met a code only the exact way can judge: the caller reads the image's
    /// sub-blocks so far again with `rescanExactly` before it goes on.
    private(set) var needsExactScan = false

    /// String length of every table entry (literals are 1).
    private let lengths = GIFCodeLengths()
    private var minimumCodeSize = 0, transparent = -1, pixelCount = 0, colorCount = 0
    private var width = 0, next = 0, previous = -1, produced = 0
    private var bits: UInt32 = 0, bitCount = 0
    /// Reading with string lengths (after a questionable code), not the quick way.
    private var exact = false

    /// Starts a new image (just after its LZW minimum code size byte). `pixelCount` is the
    /// image's width × height, `colorCount` the entries of the colour table it uses. giflib
    /// accepts code sizes 0 and 1, whose width rules are its own, and an image without
    /// pixels decodes nothing: their codes are not checked.
    mutating func begin(minimumCodeSize: Int, pixelCount: Int, transparentIndex: Int?, colorCount: Int) {
        result = Result()
        needsExactScan = false
        exact = false
        guard (2...8).contains(minimumCodeSize), pixelCount > 0 else {
            finished = true
            return
        }
        finished = false
        self.minimumCodeSize = minimumCodeSize
        self.pixelCount = pixelCount
        self.colorCount = colorCount
        transparent = transparentIndex ?? -1
        restart()
    }

    /// Back to the state before the image's first code.
    private mutating func restart() {
        width = minimumCodeSize + 1
        next = (1 << minimumCodeSize) + 2
        previous = -1
        produced = 0
        bits = 0
        bitCount = 0
    }

    /// Scans the bytes of the image's next data sub-block.
    mutating func feed(_ block: UnsafeRawBufferPointer) {
        guard !finished, !needsExactScan, block.count > 0 else { return }
        if exact { feedExactly(block) } else { feedQuickly(block) }
    }

    /// Scans the image again, the exact way, from the sub-block whose size byte is at
    /// `dataStart` in `bytes` up to the one that starts at or after `end` (or its
    /// terminator); the scan then goes on the exact way with the next `feed`.
    mutating func rescanExactly(_ bytes: UnsafeRawBufferPointer, dataStart: Int, end: Int) {
        guard needsExactScan else { return }
        needsExactScan = false
        exact = true
        result = Result()
        restart()
        feedSubBlocks(bytes, from: dataStart, upTo: end)
    }

    /// Feeds the sub-blocks whose size bytes are at `start` and after, while they start
    /// before `end`, are in `bytes` whole and the scan wants more.
    mutating func feedSubBlocks(_ bytes: UnsafeRawBufferPointer, from start: Int, upTo end: Int) {
        var p = start
        while p < min(end, bytes.count), !finished, !needsExactScan {
            let size = Int(bytes[p])
            guard size > 0, p + 1 + size <= bytes.count else { return }
            feed(UnsafeRawBufferPointer(rebasing: bytes[(p + 1)..<(p + 1 + size)]))
            p += 1 + size
        }
    }

    /// Tops up the look-ahead from `bytes[i..<count]` to at least 56 bits, or to the
    /// block's end: eight bytes at once while eight are left. The bits a load brings past
    /// the whole bytes it takes are the next bytes' own, so the next load sets them again
    /// to the same values.
    @inline(__always)
    private static func refill(
        _ bits: inout UInt64, _ bitCount: inout Int, from bytes: UnsafeRawPointer,
        at i: inout Int, count: Int
    ) {
        if count - i >= 8 {
            bits |= UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) << UInt64(bitCount)
            let taken = (63 - bitCount) >> 3
            i += taken
            bitCount += taken << 3
        } else {
            while bitCount <= 56, i < count {
                bits |= UInt64(bytes.load(fromByteOffset: i, as: UInt8.self)) << UInt64(bitCount)
                bitCount += 8
                i += 1
            }
        }
    }

    /// The quick way: the code width and the next free entry only, up to the end code.
    /// A code past the next free entry, or a literal the colour table lacks, asks for the
    /// exact way (it may come after the last pixel, where it does not count).
    private mutating func feedQuickly(_ block: UnsafeRawBufferPointer) {
        let clear = 1 << minimumCodeSize, end = clear + 1
        // Codes from `firstSpecial` to `end` leave the common path: clear, end, and literals
        // the colour table lacks (none, when the table covers every literal).
        let firstSpecial = min(colorCount, clear), transparent = self.transparent
        var width = self.width, next = self.next
        // The highest defined code: `next` itself is the previous string plus its first
        // pixel, so it is defined too once a code has been read since the last clear.
        var highestValid = previous >= 0 ? next : next - 1
        // 1 while a code read adds a table entry: after a code, and while the table has room.
        var adds = previous >= 0 && next < 4096 ? 1 : 0
        var growAt = width < 12 ? 1 << width : Int.max
        var bits = UInt64(self.bits), bitCount = self.bitCount
        var mask = (UInt64(1) << UInt64(width)) - 1
        var finished = false, questionable = false
        let bytes = block.baseAddress!
        var i = 0
        let count = block.count
        scan: while true {
            Self.refill(&bits, &bitCount, from: bytes, at: &i, count: count)
            guard bitCount >= width else { break }
            while bitCount >= width {
                let code = Int(bits & mask)
                bits >>= UInt64(width)
                bitCount -= width
                if code > highestValid {
                    questionable = true
                    break scan
                }
                if UInt(bitPattern: code &- firstSpecial) <= UInt(bitPattern: end &- firstSpecial) {
                    if code == clear {
                        width = minimumCodeSize + 1
                        mask = (UInt64(1) << UInt64(width)) - 1
                        growAt = 1 << width
                        next = end + 1
                        highestValid = end
                        adds = 0
                        continue
                    } else if code == end {
                        finished = true
                        break scan
                    } else if code != transparent {
                        questionable = true
                        break scan
                    }
                }
                next += adds
                if next == growAt {
                    width += 1
                    mask = (UInt64(1) << UInt64(width)) - 1
                    growAt = width < 12 ? 1 << width : Int.max
                }
                adds = next < 4096 ? 1 : 0
                highestValid = next
            }
        }
        self.width = width
        self.next = next
        previous = highestValid == next ? 0 : -1
        self.bits = UInt32(truncatingIfNeeded: bits)
        self.bitCount = min(bitCount, 32)
        self.finished = finished
        needsExactScan = questionable
    }

    /// The exact way: with each entry's string length, so it stops at the image's last pixel.
    private mutating func feedExactly(_ block: UnsafeRawBufferPointer) {
        let minimumCodeSize = self.minimumCodeSize, pixelCount = self.pixelCount, transparent = self.transparent
        let clear = 1 << minimumCodeSize, end = clear + 1
        var width = self.width, next = self.next, previous = self.previous, produced = self.produced
        // 64 bits of look-ahead, refilled only when fewer than 12 (the widest code) are
        // left: the inner loop takes whole codes without a per-byte step.
        var bits = UInt64(self.bits), bitCount = self.bitCount, highest = result.highestIndex
        var mask = (UInt64(1) << UInt64(width)) - 1
        var finished = false, badCode: (code: Int, nextFree: Int)?
        let length = lengths.entries
        // The string length of `previous` (what the table holds for it), kept in a register.
        var previousLength: Int32 = previous < 0 ? 0 : previous < clear ? 1 : length[previous]
        let bytes = block.baseAddress!
        var i = 0
        let count = block.count
        scan: while true {
            Self.refill(&bits, &bitCount, from: bytes, at: &i, count: count)
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

/// The string length of each of the 4096 LZW table entries, for `GIFCodeScan`: one
/// allocation made once per parser and read through a pointer, so the scan's inner loop
/// runs on locals with no closure around it.
///
/// `@unchecked Sendable`: the entries are scratch of the one parser that made them, written
/// and read only inside that parser's mutating calls (one at a time: a parser is a value
/// used by one owner, an incremental source keeps it behind its lock), and every image
/// writes an entry before reading it, so no value left by an earlier use is ever read.
final class GIFCodeLengths: @unchecked Sendable {
    /// 4096 entries; literals are 1, the rest are written before they are read.
    let entries: UnsafeMutablePointer<Int32>

    init() {
        entries = .allocate(capacity: 4096)
        entries.initialize(repeating: 1, count: 4096)
    }

    deinit { entries.deallocate() }
}

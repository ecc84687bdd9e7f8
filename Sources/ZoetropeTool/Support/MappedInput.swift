import Foundation

/// A file mapped read-only for `convert`, whose resident pages can be dropped as decoding
/// moves on.
///
/// A mapped file's pages count in the process's resident size once touched, so converting
/// a 50 MB GIF would otherwise hold all 50 MB resident by the end. Dropping them
/// (`MADV_DONTNEED` on a private read-only file mapping) only forgets the process's page
/// table entries: the data stays in the page cache and any page read again faults back in.
final class MappedInput {
    /// The file's bytes (valid while this object lives).
    let data: Data
    private let base: UnsafeMutableRawPointer?
    private let length: Int

    /// Maps `path`; nil when it cannot be mapped (empty files, pipes).
    init?(path: String) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size > 0 else { return nil }
        let length = Int(st.st_size)
        guard let p = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else { return nil }
        self.base = p
        self.length = length
        data = Data(bytesNoCopy: p, count: length, deallocator: .custom { p, n in munmap(p, n) })
    }

    /// Forgets the resident pages (they fault back in from the page cache when read again).
    func dropResidentPages() {
        #if os(Linux)
        if let base { _ = madvise(base, length, Int32(MADV_DONTNEED)) }
        #endif
    }
}

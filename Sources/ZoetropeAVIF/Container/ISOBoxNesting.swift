/// Explains why libavif found nothing in a file whose top-level boxes are all complete:
/// boxes nested deeper than any AVIF file nests them, or a box reaching past the end of
/// the box that holds it. Used only on the error path (libavif said "Truncated data" about
/// a file that is not cut short), so its heuristics never affect a file that decodes.
enum ISOBoxNesting {
    /// Deeper than this is not an AVIF structure (the deepest real path, moov › trak › mdia ›
    /// minf › stbl › stsd › av01 › av1C, is 8 levels).
    static let maximumDepth = 32

    /// What is wrong with the box tree under `range`, or nil when nothing is found. A box's
    /// payload counts as child boxes when it starts with a plausible box header (a printable
    /// type and a size of at least 8); `mdat` and `idat` hold media data and are not walked.
    /// The walk stops at `maximumDepth`, so its stack stays small whatever the file.
    static func problem(in bytes: UnsafeRawBufferPointer, range: Range<Int>) -> String? {
        var path: [String] = []
        return walk(bytes, range, depth: 0, path: &path)
    }

    private static func walk(_ b: UnsafeRawBufferPointer, _ range: Range<Int>, depth: Int, path: inout [String]) -> String? {
        var o = range.lowerBound
        while o + 8 <= range.upperBound {
            guard let (type, size, header) = header(b, at: o, limit: range.upperBound) else { return nil }
            let parent = path.last ?? "file"
            guard size <= range.upperBound - o else {
                return "box '\(type)' in '\(parent)' at byte \(o) claims \(size) bytes, past the end of its parent "
                    + "(\(range.upperBound - o) bytes remain)"
            }
            let payload = o + header + (type == "meta" ? 4 : 0)..<o + size
            if type != "mdat", type != "idat", payload.count >= 8, self.header(b, at: payload.lowerBound, limit: payload.upperBound) != nil {
                path.append(type)
                if depth + 1 >= maximumDepth {
                    let shown = path.prefix(4).map { "'\($0)'" }.joined(separator: " › ")
                    return "boxes are nested more than \(maximumDepth) levels deep (\(shown) › …, at byte \(payload.lowerBound)); "
                        + "no AVIF file nests boxes that deep"
                }
                if let p = walk(b, payload, depth: depth + 1, path: &path) { return p }
                path.removeLast()
            }
            o += size
        }
        return nil
    }

    /// A plausible box header at `o`: printable type, 32- or 64-bit size of at least its header.
    private static func header(_ b: UnsafeRawBufferPointer, at o: Int, limit: Int) -> (String, Int, Int)? {
        guard o + 8 <= limit else { return nil }
        let typeBytes = (4..<8).map { b[o + $0] }
        guard typeBytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        var size = (0..<4).reduce(0) { $0 << 8 | Int(b[o + $1]) }
        var header = 8
        if size == 1 {
            guard o + 16 <= limit else { return nil }
            let big = (8..<16).reduce(UInt64(0)) { $0 << 8 | UInt64(b[o + $1]) }
            size = big > UInt64(Int.max) ? .max : Int(big)
            header = 16
        } else if size == 0 {
            size = limit - o
        }
        guard size >= header else { return nil }
        return (String(decoding: typeBytes, as: UTF8.self), size, header)
    }
}

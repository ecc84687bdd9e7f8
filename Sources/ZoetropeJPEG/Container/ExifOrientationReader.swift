/// Reads the Orientation tag (0x0112) of IFD0 from the payload of an `APP1` segment.
///
/// Everything in the payload is untrusted: every offset is checked against the payload's
/// bounds, and anything unexpected (not `Exif\0\0`, an unknown byte order, an IFD0 past the
/// end, a tag of the wrong type, a value outside 1–8) means "no orientation" rather than an
/// error, as browsers treat a broken Exif block.
enum ExifOrientationReader {
    /// The `Exif\0\0` signature an Exif `APP1` payload starts with.
    static let signature: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]

    /// The orientation stored in `payload` (the bytes after the segment's length), or nil.
    static func orientation(inAPP1 payload: UnsafeRawBufferPointer) -> JPEGOrientation? {
        guard payload.count >= signature.count + 8, payload.starts(with: signature) else { return nil }
        guard let entry = orientationEntry(inTIFF: UnsafeRawBufferPointer(rebasing: payload[signature.count...])) else { return nil }
        return JPEGOrientation(rawValue: entry.value)
    }

    /// `tiff` (an Exif block from its TIFF header on) with its orientation set to 1 (as
    /// stored): for a picture already turned by that orientation, so that whoever reads the
    /// copied block does not turn it again. Unchanged when it stores no orientation.
    static func upright(_ tiff: [UInt8]) -> [UInt8] {
        guard let entry = tiff.withUnsafeBytes({ orientationEntry(inTIFF: $0) }), entry.value != 1 else { return tiff }
        var out = tiff
        out[entry.offset] = entry.littleEndian ? 1 : 0
        out[entry.offset + 1] = entry.littleEndian ? 0 : 1
        return out
    }

    /// IFD0's orientation entry: its value (a SHORT) and where that value is stored.
    private static func orientationEntry(inTIFF tiff: UnsafeRawBufferPointer) -> (value: Int, offset: Int, littleEndian: Bool)? {
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true  // "II"
        case (0x4D, 0x4D): littleEndian = false  // "MM"
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o <= tiff.count - 2 else { return nil }
            let a = Int(tiff[o]), b = Int(tiff[o + 1])
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func u32(_ o: Int) -> Int? {
            guard let lo = u16(littleEndian ? o : o + 2), let hi = u16(littleEndian ? o + 2 : o) else { return nil }
            return hi << 16 | lo
        }
        guard u16(2) == 42, let ifd0 = u32(4), let entries = u16(ifd0) else { return nil }
        for k in 0..<entries {
            let entry = ifd0 + 2 + 12 * k
            guard let tag = u16(entry), let type = u16(entry + 2), let count = u32(entry + 4) else { return nil }
            guard tag == 0x0112 else { continue }
            // SHORT (3), one value, stored in the first two bytes of the value field.
            guard type == 3, count >= 1, let value = u16(entry + 8), (1...8).contains(value) else { return nil }
            return (value, entry + 8, littleEndian)
        }
        return nil
    }
}

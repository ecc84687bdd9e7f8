import Zoetrope

/// Lists the boxes directly inside a byte range of an ISOBMFF file.
enum ISOBoxScanner {
    /// The boxes that tile `range`, in order.
    ///
    /// A box whose size is smaller than its header, or that reaches past `range`, is an
    /// `invalidData` error naming `parent` — except, when `tolerateTruncation` is set (the
    /// top level of a file that may have been cut short), the scan stops before it and
    /// reports the box as the second value so the caller can decide whether it mattered.
    /// That box's `end` is where its size says it ends, past the end of `range`.
    static func boxes(
        in bytes: UnsafeRawBufferPointer, range: Range<Int>, parent: String,
        tolerateTruncation: Bool = false
    ) throws(AnimatedImageError) -> (boxes: [ISOBox], cut: ISOBox?) {
        var out: [ISOBox] = []
        var o = range.lowerBound
        while o < range.upperBound {
            var r = ISOByteReader(bytes, range: o..<range.upperBound, context: parent)
            if r.remaining < 8 {
                if tolerateTruncation { return (out, nil) }
                throw .invalidData(format: .avif, reason: "box '\(parent)' ends with \(r.remaining) stray bytes")
            }
            let size32 = try r.u32()
            let type = try r.u32()
            var size: UInt64 = UInt64(size32)
            if size32 == 1 {
                guard r.remaining >= 8 else {
                    if tolerateTruncation { return (out, nil) }
                    throw .invalidData(format: .avif, reason: "box '\(ISOBox.name(of: type))' in '\(parent)' is truncated")
                }
                size = try r.u64()
            } else if size32 == 0 {
                size = UInt64(range.upperBound - o)  // extends to the end of its parent
            }
            let header = r.offset - o
            guard size >= UInt64(header) else {
                throw .invalidData(format: .avif, reason: "box '\(ISOBox.name(of: type))' in '\(parent)' has size \(size), smaller than its header")
            }
            let available = UInt64(range.upperBound - o)
            if size > available {
                let declaredEnd = UInt64(o).addingReportingOverflow(size)
                let box = ISOBox(
                    type: type, start: o, payloadStart: o + header,
                    end: declaredEnd.overflow || declaredEnd.partialValue > UInt64(Int.max) ? .max : Int(declaredEnd.partialValue))
                if tolerateTruncation { return (out, box) }
                throw .invalidData(format: .avif, reason: "box '\(box.typeName)' in '\(parent)' claims \(size) bytes but only \(available) remain")
            }
            let end = o + Int(size)
            out.append(ISOBox(type: type, start: o, payloadStart: o + header, end: end))
            o = end
        }
        return (out, nil)
    }

    /// The boxes inside `box`'s payload, after `skipping` leading bytes (4 for a full box).
    static func children(of box: ISOBox, in bytes: UnsafeRawBufferPointer, skipping: Int = 0) throws(AnimatedImageError) -> [ISOBox] {
        guard box.payload.count >= skipping else {
            throw .invalidData(format: .avif, reason: "box '\(box.typeName)' is truncated")
        }
        return try boxes(in: bytes, range: box.payloadStart + skipping..<box.end, parent: box.typeName).boxes
    }
}

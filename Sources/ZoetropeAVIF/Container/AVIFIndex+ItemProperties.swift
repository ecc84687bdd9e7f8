import Zoetrope

extension AVIFIndex {
    /// Bytes to write over Zoetrope's copy of the file: `bytes` replace as many bytes at
    /// `offset`, so every other offset in the file stays where it was.
    struct Patch: Hashable, Sendable {
        var offset: Int
        var bytes: [UInt8]
    }

    /// One `ipma` entry: an item and its property associations, each kept as stored
    /// (1 byte, or 2 when the box's flags say so; bit 7/15 is "essential").
    private struct Association {
        var item: UInt32
        var properties: [UInt16]
    }

    /// libavif 0.11 refuses an `iprp` with two `ipma` boxes of the same version and flags
    /// ("Multiple Box[ipma] with a given pair of values of version and flags"); current
    /// libavif and Chromium decode such files. This merges the `ipma` boxes of each
    /// version-and-flags pair into one, entries sorted by item ID, written in place of the
    /// originals. The merged boxes are smaller (one header instead of several); the bytes
    /// saved become property associations with index 0 ("no property", which every reader
    /// skips) on the last entries, so the `iprp`, `meta` and every file offset keep their size
    /// and place. Returns nil when there is nothing to merge, or when the boxes cannot be
    /// merged (an item listed twice, an unknown version, no room for the padding): libavif's
    /// own error then stands.
    static func mergedItemPropertyAssociations(_ iprp: ISOBox, _ bytes: UnsafeRawBufferPointer) -> Patch? {
        guard let children = try? ISOBoxScanner.children(of: iprp, in: bytes), children.count > 2,
            children[0].type == ISOBox.code("ipco"),
            children.dropFirst().allSatisfy({ $0.type == ISOBox.code("ipma") })
        else { return nil }
        var groups: [(version: UInt8, flags: UInt32, entries: [Association])] = []
        for box in children.dropFirst() {
            guard let (version, flags, entries) = try? readAssociations(box, bytes), version <= 1 else { return nil }
            if let g = groups.firstIndex(where: { $0.version == version && $0.flags == flags }) {
                groups[g].entries += entries
            } else {
                groups.append((version, flags, entries))
            }
        }
        guard groups.count < children.count - 1 else { return nil }
        let region = children[1].start..<children[children.count - 1].end
        for g in groups.indices {
            groups[g].entries.sort { $0.item < $1.item }
            let ids = groups[g].entries.map(\.item)
            guard Set(ids).count == ids.count else { return nil }
        }
        func size(_ g: (version: UInt8, flags: UInt32, entries: [Association])) -> Int {
            16 + g.entries.reduce(0) { $0 + (g.version == 0 ? 2 : 4) + 1 + $1.properties.count * (g.flags & 1 != 0 ? 2 : 1) }
        }
        // Pad with index-0 associations, from the last entry backwards, until the sizes match.
        var padding = region.count - groups.reduce(0) { $0 + size($1) }
        guard padding >= 0 else { return nil }
        for g in groups.indices.reversed() where padding > 0 {
            let unit = groups[g].flags & 1 != 0 ? 2 : 1
            for e in groups[g].entries.indices.reversed() where padding >= unit {
                let room = 255 - groups[g].entries[e].properties.count
                let n = min(room, padding / unit)
                groups[g].entries[e].properties += [UInt16](repeating: 0, count: n)
                padding -= n * unit
            }
        }
        guard padding == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(region.count)
        func be(_ v: UInt32, _ n: Int) { for i in (0..<n).reversed() { out.append(UInt8(truncatingIfNeeded: v >> UInt32(8 * i))) } }
        for g in groups {
            be(UInt32(size(g)), 4)
            out += Array("ipma".utf8)
            out.append(g.version)
            be(g.flags, 3)
            be(UInt32(g.entries.count), 4)
            for e in g.entries {
                be(e.item, g.version == 0 ? 2 : 4)
                out.append(UInt8(e.properties.count))
                for p in e.properties { be(UInt32(p), g.flags & 1 != 0 ? 2 : 1) }
            }
        }
        guard out.count == region.count else { return nil }
        return Patch(offset: region.lowerBound, bytes: out)
    }

    private static func readAssociations(_ ipma: ISOBox, _ bytes: UnsafeRawBufferPointer)
        throws(AnimatedImageError) -> (UInt8, UInt32, [Association])
    {
        var r = ISOByteReader(bytes, range: ipma.payload, context: "ipma")
        let (version, flags) = try r.versionAndFlags()
        let count = Int(try r.u32())
        // Each entry takes at least 3 bytes: a count past that is a broken box.
        guard count <= r.remaining / 3 else {
            throw .invalidData(format: .avif, reason: "box 'ipma' lists \(count) entries but holds \(r.remaining) bytes")
        }
        var entries: [Association] = []
        for _ in 0..<count {
            let item = version == 0 ? UInt32(try r.u16()) : try r.u32()
            let n = Int(try r.u8())
            var properties: [UInt16] = []
            for _ in 0..<n { properties.append(flags & 1 != 0 ? try r.u16() : UInt16(try r.u8())) }
            entries.append(Association(item: item, properties: properties))
        }
        return (version, flags, entries)
    }
}

import Zoetrope

/// Walks a JPEG's markers from SOI to EOI without decoding: the frame header (size,
/// components, progressive), the first Exif block and its orientation, the first XMP
/// packet, the ICC profile's chunks, the Adobe marker, and whether the file ends with its EOI.
/// What libjpeg-turbo reads with a warning the walk reads the same way and reports in
/// `JPEGHeader.warnings`: bytes that are not a marker where one belongs (skipped), and a
/// comment or application segment whose length field is below 2 (skipped after its length).
///
/// Entropy-coded data after each SOS is skipped byte by byte to the next marker (0xFF
/// followed by anything but a stuffed 0x00, a restart marker or a fill 0xFF). A file that
/// ends before its EOI is truncated: it fails to open (`.truncated`, no complete frame),
/// although libjpeg-turbo would paint the missing part grey (baseline) or coarse
/// (progressive).
enum JPEGMarkerScanner {
    static func scan(_ b: UnsafeRawBufferPointer) throws(AnimatedImageError) -> JPEGHeader {
        let format = ImageFormat.jpeg, n = b.count
        guard n >= 3 else { throw .insufficientData(format: format, needed: 3, available: n) }
        guard b[0] == 0xFF, b[1] == 0xD8 else { throw .invalidData(format: format, reason: "no start-of-image marker (FF D8)") }

        var frame: JPEGFrameHeader?
        var quantTables = Set<Int>()
        var scanBytes = 0
        var orientation: JPEGOrientation?, sawExif = false, adobe = false
        var exif: [UInt8]?, xmp: [UInt8]?
        var iccChunks = ICCChunks()
        var sawScan = false, sawEnd = false
        var warnings = JPEGWarnings()
        var discarded = 0
        var i = 2
        walk: while i < n {
            // Bytes that are not a marker where one belongs (a stray FF 00 among them):
            // libjpeg skips them with a warning ("extraneous bytes before marker"), and so
            // does the walk, counting them as libjpeg does.
            guard b[i] == 0xFF else { i += 1; discarded += 1; continue }
            while i < n, b[i] == 0xFF { i += 1 }  // fill bytes
            guard i < n else { break }
            let marker = b[i]
            i += 1
            if marker == 0x00 { discarded += 2; continue }
            if discarded > 0 {
                warnings.add("Corrupt JPEG data: \(discarded) extraneous bytes before marker 0x\(hex(marker).lowercased())")
                discarded = 0
            }
            switch marker {
            case 0xD9:
                sawEnd = true
                break walk
            case 0x01, 0xD0...0xD7:
                continue  // TEM, a restart marker: no length
            case 0xD8:
                throw .invalidData(format: format, reason: "a second start-of-image marker")
            default:
                break
            }
            guard i + 2 <= n else { break }
            let length = Int(b[i]) << 8 | Int(b[i + 1])
            guard length >= 2 else {
                // A comment or application segment too short to hold its own length: libjpeg
                // reads the length field and goes on after it, and browsers show the picture.
                guard marker == 0xFE || (0xE0...0xEF).contains(marker) else {
                    throw .invalidData(format: format, reason: "marker FF \(hex(marker)) has a length of \(length)")
                }
                warnings.add("marker FF \(hex(marker)) has a length of \(length), skipped")
                i += 2
                continue
            }
            guard length <= n - i else { break }
            let payload = UnsafeRawBufferPointer(rebasing: b[(i + 2)..<(i + length)])
            i += length
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard frame == nil else { throw .invalidData(format: format, reason: "a second frame header") }
                frame = try frameHeader(marker, payload)
            case 0xE1 where !sawExif && payload.starts(with: ExifOrientationReader.signature):
                // The first Exif block decides, even without the tag.
                orientation = ExifOrientationReader.orientation(inAPP1: payload)
                exif = Array(payload.dropFirst(ExifOrientationReader.signature.count))
                sawExif = true
            case 0xE1 where xmp == nil && payload.starts(with: xmpSignature):
                xmp = Array(payload.dropFirst(xmpSignature.count))
            case 0xE2 where payload.starts(with: ICCChunks.signature):
                iccChunks.add(payload)
            case 0xEE where payload.count >= 12 && payload.starts(with: [0x41, 0x64, 0x6F, 0x62, 0x65]):  // "Adobe"
                adobe = true
            case 0xDB:
                try readQuantTables(payload, into: &quantTables)
            case 0xDA:
                guard let frame else {
                    throw .invalidData(format: format, reason: "a scan before the frame header")
                }
                try checkScanHeader(payload, frame: frame, quantTables: quantTables)
                sawScan = true
                let end = endOfEntropyData(b, from: i)
                scanBytes += end - i
                i = end
            default:
                break
            }
        }
        guard let frame else {
            if sawEnd { throw .invalidData(format: format, reason: "no frame header before the end-of-image marker") }
            throw .truncated(format: format, completeFrames: 0, reason: "the file ends before its frame header")
        }
        guard sawEnd else {
            throw .truncated(
                format: format, completeFrames: 0,
                reason: sawScan
                    ? "the file ends inside its image data (no end-of-image marker)"
                    : "the file ends before its image data")
        }
        guard sawScan else { throw .invalidData(format: format, reason: "no scan before the end-of-image marker") }
        return JPEGHeader(
            storedSize: frame.size, components: frame.components.count, isProgressive: frame.isProgressive,
            orientation: orientation ?? .up, hasAdobeMarker: adobe, iccProfile: iccChunks.profile,
            exif: exif, xmp: xmp, warnings: warnings.lines, scanByteCount: scanBytes,
            minimumScanByteCount: frame.minimumScanBytes)
    }

    /// What an XMP `APP1` payload starts with.
    static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// The SOFn payload: precision, height, width, components (id, sampling factors, table).
    private static func frameHeader(_ marker: UInt8, _ p: UnsafeRawBufferPointer)
        throws(AnimatedImageError) -> JPEGFrameHeader
    {
        let format = ImageFormat.jpeg
        switch marker {
        case 0xC3, 0xC7, 0xCB, 0xCF: throw .unsupported(format: format, feature: "lossless JPEG (SOF\(marker - 0xC0))")
        case 0xC5, 0xC6, 0xCD, 0xCE: throw .unsupported(format: format, feature: "hierarchical JPEG (SOF\(marker - 0xC0))")
        default: break
        }
        guard p.count >= 6 else { throw .invalidData(format: format, reason: "a frame header of \(p.count) bytes") }
        let precision = Int(p[0]), height = Int(p[1]) << 8 | Int(p[2]), width = Int(p[3]) << 8 | Int(p[4])
        let components = Int(p[5])
        guard precision == 8 else { throw .unsupported(format: format, feature: "\(precision)-bit samples") }
        guard p.count >= 6 + 3 * components else {
            throw .invalidData(format: format, reason: "a frame header of \(p.count) bytes for \(components) components")
        }
        guard [1, 3, 4].contains(components) else { throw .unsupported(format: format, feature: "\(components) components") }
        guard height > 0 else { throw .unsupported(format: format, feature: "a height given by a DNL marker") }
        guard width > 0 else { throw .invalidData(format: format, reason: "a width of 0") }
        var parts: [JPEGFrameHeader.Component] = []
        for k in 0..<components {
            let factors = p[7 + 3 * k]
            let h = Int(factors >> 4), v = Int(factors & 0x0F)
            // libjpeg-turbo refuses sampling factors outside 1…4 (JERR_BAD_SAMPLING).
            guard (1...4).contains(h), (1...4).contains(v) else {
                throw .invalidData(format: format, reason: "Bogus sampling factors")
            }
            parts.append(.init(id: p[6 + 3 * k], horizontal: h, vertical: v, quantTable: Int(p[8 + 3 * k])))
        }
        return JPEGFrameHeader(
            size: PixelSize(width: width, height: height), components: parts,
            isProgressive: marker == 0xC2 || marker == 0xCA, isArithmetic: marker >= 0xC9)
    }

    /// Checks an SOS header as libjpeg-turbo will before it decodes the scan (its error
    /// texts), so a progressive file whose scans it would refuse fails before the raster
    /// and the coefficients are allocated: the length, the components (1…4, each one of
    /// the frame's), and a progressive scan's spectral selection and successive approximation.
    private static func checkScanHeader(
        _ p: UnsafeRawBufferPointer, frame: JPEGFrameHeader, quantTables: Set<Int>
    ) throws(AnimatedImageError) {
        let format = ImageFormat.jpeg
        guard p.count >= 1 else { throw .invalidData(format: format, reason: "Bogus marker length") }
        let n = Int(p[0])
        guard (1...4).contains(n), p.count == 4 + 2 * n else { throw .invalidData(format: format, reason: "Bogus marker length") }
        for k in 0..<n {
            guard let component = frame.components.first(where: { $0.id == p[1 + 2 * k] }) else {
                throw .invalidData(format: format, reason: "Invalid component ID \(p[1 + 2 * k]) in SOS")
            }
            // libjpeg-turbo takes a component's table at its first scan, after allocating.
            guard quantTables.contains(component.quantTable) else {
                throw .invalidData(
                    format: format, reason: "Quantization table 0x\(hex(UInt8(component.quantTable)).lowercased()) was not defined")
            }
        }
        guard frame.isProgressive else { return }  // sequential: odd parameters are a warning
        let ss = Int(p[1 + 2 * n]), se = Int(p[2 + 2 * n]), ah = Int(p[3 + 2 * n] >> 4), al = Int(p[3 + 2 * n] & 0x0F)
        var bad = ss == 0 ? se != 0 : (ss > se || se > 63 || n != 1)
        if ah != 0 && al != ah - 1 { bad = true }
        if al > 13 { bad = true }
        if bad {
            throw .invalidData(format: format, reason: "Invalid progressive parameters Ss=\(ss) Se=\(se) Ah=\(ah) Al=\(al)")
        }
    }

    /// The table numbers a DQT segment defines (each: precision and number in a byte, then
    /// 64 values of 8 or 16 bits). A number above 3 is an error, as libjpeg-turbo says; a
    /// table cut short it keeps (the missing values 1), and so does the walk.
    private static func readQuantTables(_ p: UnsafeRawBufferPointer, into tables: inout Set<Int>) throws(AnimatedImageError) {
        var o = 0
        while o < p.count {
            let precision = Int(p[o] >> 4), number = Int(p[o] & 0x0F)
            guard number < 4 else { throw .invalidData(format: .jpeg, reason: "Bogus DQT index \(number)") }
            tables.insert(number)
            o += 1 + (precision == 0 ? 64 : 128)
        }
    }

    /// The index of the marker that ends the entropy-coded data starting at `start`, or the
    /// end of the data when none does.
    private static func endOfEntropyData(_ b: UnsafeRawBufferPointer, from start: Int) -> Int {
        var i = start
        let n = b.count
        while i < n - 1 {
            if b[i] == 0xFF {
                var j = i + 1
                while j < n, b[j] == 0xFF { j += 1 }
                guard j < n else { return n }
                let next = b[j]
                if next != 0x00 && !(0xD0...0xD7).contains(next) { return j - 1 }
                i = j + 1
            } else {
                i += 1
            }
        }
        return n
    }

    private static func hex(_ byte: UInt8) -> String {
        let s = String(byte, radix: 16, uppercase: true)
        return s.count == 1 ? "0" + s : s
    }
}

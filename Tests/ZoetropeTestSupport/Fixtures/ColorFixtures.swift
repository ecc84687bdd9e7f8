import Zoetrope

/// A colour profile, an Exif block and an XMP packet for tests that write them and read them
/// back, built here byte by byte.
public enum ColorFixtures {
    /// A small, syntactically valid ICC v2 display profile (RGB, PCS XYZ): the sRGB
    /// primaries adapted to D50 as `rXYZ`/`gXYZ`/`bXYZ`, a D50 `wtpt`, one gamma-2.2 curve
    /// shared by the three TRC tags, a `desc` and a `cprt`. Decoders only carry its bytes;
    /// it is valid so that reference tools and colour engines accept it too.
    public static let iccProfile: ICCProfile = ICCProfile(data: makeProfile(description: "Zoetrope test RGB"))

    /// A second, different profile (another description), for tests that tell profiles apart.
    public static let otherICCProfile: ICCProfile = ICCProfile(data: makeProfile(description: "Zoetrope other RGB"))

    /// A little-endian TIFF header with one IFD holding Orientation = 1: a well-formed Exif
    /// block (26 bytes) as PNG `eXIf`, WebP `EXIF` and AVIF `Exif` store it.
    public static let exif: [UInt8] = [
        0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00,  // "II", 42, first IFD at 8
        0x01, 0x00,  // one entry
        0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,  // Orientation, SHORT, 1, value 1
        0x00, 0x00, 0x00, 0x00,  // no next IFD
    ]

    /// An XMP packet with a title, of odd length (so RIFF padding is exercised).
    public static let xmp: [UInt8] = Array(
        ("<?xpacket begin=\"\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>"
            + "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:title>Zoetrope</dc:title>"
            + "</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end=\"r\"?>").utf8)

    /// The three together.
    public static let metadata = EmbeddedMetadata(exif: exif, xmp: xmp)

    /// Builds the profile: 128-byte header, tag table, tag data (each 4-byte aligned).
    static func makeProfile(description: String) -> [UInt8] {
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func sig(_ s: String) -> [UInt8] { Array(s.utf8) }
        func s15(_ v: Double) -> [UInt8] { be32(UInt32(bitPattern: Int32((v * 65536).rounded()))) }
        func xyz(_ x: Double, _ y: Double, _ z: Double) -> [UInt8] { sig("XYZ ") + [0, 0, 0, 0] + s15(x) + s15(y) + s15(z) }
        let text = Array(description.utf8) + [0]
        let desc =
            sig("desc") + [0, 0, 0, 0] + be32(UInt32(text.count)) + text
            + be32(0) + be32(0)  // Unicode language code and count
            + be16(0) + [0] + [UInt8](repeating: 0, count: 67)  // ScriptCode code, count, filler
        let cprt = sig("text") + [0, 0, 0, 0] + Array("No copyright, use freely".utf8) + [0]
        let curve = sig("curv") + [0, 0, 0, 0] + be32(1) + be16(0x0233)  // gamma 2.2 (u8Fixed8)
        let tags: [(String, [UInt8])] = [
            ("desc", desc), ("cprt", cprt), ("wtpt", xyz(0.9642, 1.0, 0.8249)),
            ("rXYZ", xyz(0.4361, 0.2225, 0.0139)), ("gXYZ", xyz(0.3851, 0.7169, 0.0971)),
            ("bXYZ", xyz(0.1431, 0.0606, 0.7141)), ("rTRC", curve),
        ]
        let tableSize = 4 + 12 * (tags.count + 2)  // gTRC and bTRC share rTRC's data
        var data: [UInt8] = [], table: [UInt8] = be32(UInt32(tags.count + 2))
        var offset = 128 + tableSize
        var curveEntry: (UInt32, UInt32) = (0, 0)
        for (name, bytes) in tags {
            table += sig(name) + be32(UInt32(offset)) + be32(UInt32(bytes.count))
            if name == "rTRC" { curveEntry = (UInt32(offset), UInt32(bytes.count)) }
            let padded = bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
            data += padded
            offset += padded.count
        }
        for name in ["gTRC", "bTRC"] { table += sig(name) + be32(curveEntry.0) + be32(curveEntry.1) }
        let size = 128 + tableSize + data.count
        var header = be32(UInt32(size)) + be32(0) + be32(0x0210_0000) + sig("mntr") + sig("RGB ") + sig("XYZ ")
        header += be16(2026) + be16(12) + be16(3) + be16(0) + be16(0) + be16(0)
        header += sig("acsp") + be32(0) + be32(0) + be32(0) + be32(0) + [UInt8](repeating: 0, count: 8)
        header += be32(0)  // perceptual
        header += s15(0.9642) + s15(1.0) + s15(0.8249)  // D50
        header += be32(0) + [UInt8](repeating: 0, count: 16) + [UInt8](repeating: 0, count: 28)
        precondition(header.count == 128)
        return header + table + data
    }
}

import Zoetrope

/// What the AV1 encoder is told the frames are, which picks its coding tools: libaom's
/// `tune-content` (the other encoders ignore it).
///
/// libaom's screen-content tools (palette blocks, intra block copy) suit images of few
/// colours and flat areas, which is what GIF and other palette sources are: fewer bytes at
/// the same quality there (Docs/Benchmarks.md, "AVIF of palette sources"), at some encoding
/// time; on photographic frames they only cost time.
public enum AVIFContent: String, Sendable, CaseIterable {
    /// Screen content when the first frame has at most 256 colours (a palette source),
    /// the default tuning otherwise.
    case automatic
    /// libaom's screen-content tools, whatever the frames.
    case screen
    /// libaom's default tuning, whatever the frames.
    case natural

    /// Whether frames starting with `first` are encoded as screen content.
    func usesScreenTools(first: PixelBuffer) -> Bool {
        switch self {
        case .screen: return true
        case .natural: return false
        case .automatic: return Self.hasFewColours(first)
        }
    }

    /// At most 256 distinct RGBA values (the most a GIF frame shows).
    static func hasFewColours(_ pixels: PixelBuffer) -> Bool {
        var seen = Set<UInt32>(minimumCapacity: 257)
        return pixels.bytes.withUnsafeBytes { raw -> Bool in
            let width = pixels.width, stride = pixels.bytesPerRow
            for y in 0..<pixels.height {
                let row = raw.baseAddress! + y * stride
                var last: UInt32?
                for x in 0..<width {
                    let v = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                    if v == last { continue }  // runs are common: one lookup per run
                    last = v
                    if seen.insert(v).inserted, seen.count > 256 { return false }
                }
            }
            return true
        }
    }
}

import Foundation
import Zoetrope

/// The sample coder `Docs/WritingACoder.md` walks through (every Swift block of the guide
/// is quoted verbatim from these files: `WritingACoderGuideTests` checks it). A toy format
/// of rectangles composited over a canvas, all numbers little-endian:
///
///     "ZRECT1"  width:u16  height:u16  plays:u16 (0 = forever)  frameCount:u16
///     per frame: x y w h:u16  dispose:u8 (0 none, 1 background, 2 previous)
///                blend:u8 (0 source, 1 over)  durationMs:u16  w × h × 4 bytes of straight RGBA
struct RectFramesCoder: AnimatedImageCoder {
    static let format = ImageFormat(
        identifier: "zrect", mediaType: "application/x-zoetrope-rect",
        fileExtensions: ["zrect"])
    static let magic = Array("ZRECT1".utf8)

    var formats: [ImageFormat] { [Self.format] }
    var minimumSniffLength: Int { Self.magic.count }

    func sniff(_ prefix: Data) -> SniffResult {
        let head = Array(prefix.prefix(Self.magic.count))  // `prefix` may be a slice: no indices
        guard head == Array(Self.magic.prefix(head.count)) else { return .noMatch }
        guard head.count == Self.magic.count else { return .needMoreData(minimumLength: Self.magic.count) }
        return .match(Self.format, .unknown)  // the first bytes cannot tell a still from an animation
    }

    func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource {
        try RectFrameSource(data: data, options: options)
    }

    /// One frame to write.
    struct Frame {
        var rect: FrameRect
        var dispose: UInt8 = 0
        var blend: UInt8 = 1
        var durationMs = 100
        var rgba: [UInt8]
    }

    /// Writes a file in this format (the tests' encoder).
    static func encode(width: Int, height: Int, plays: Int = 0, frames: [Frame]) -> Data {
        var d = Data(magic)
        func u16(_ v: Int) { d.append(UInt8(v & 0xFF)); d.append(UInt8(v >> 8 & 0xFF)) }
        for v in [width, height, plays, frames.count] { u16(v) }
        for f in frames {
            for v in [f.rect.x, f.rect.y, f.rect.width, f.rect.height] { u16(v) }
            d.append(f.dispose)
            d.append(f.blend)
            u16(f.durationMs)
            d.append(contentsOf: f.rgba)
        }
        return d
    }
}

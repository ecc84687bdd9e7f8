import Foundation
import Zoetrope
import ZoetropeAPNG
import ZoetropeAVIF
import ZoetropeGIF
import ZoetropeTestSupport
import ZoetropeWebP

@testable import ZoetropeTool

/// Inputs for `convert` tests, and the decoding they are checked with.
enum ConvertFixtures {
    /// A 24×16 GIF: 5 frames of 50, 70, 100, 30 and 200 ms, 3 plays (NETSCAPE 2), a
    /// 40-colour global table, transparency, sub-rectangles and all three disposals.
    static func gif() -> Data {
        var palette: [GIFWriter.Color] = []
        for i in 0..<40 {
            let r = UInt8(i * 6), g = UInt8(255 - i * 5), b = UInt8((i * 37) % 256)
            palette.append((r, g, b))
        }
        var w = GIFWriter(width: 24, height: 16, globalColors: palette)
        w.loop(2)
        w.graphicControl(delay: 5, disposal: 1)
        var first: [UInt8] = []
        for i in 0..<(24 * 16) { first.append(UInt8((i % 24 + i / 24) % 39)) }
        w.image(width: 24, height: 16, indices: first)
        w.graphicControl(delay: 7, disposal: 2, transparentIndex: 39)
        w.image(x: 3, y: 2, width: 8, height: 6, indices: (0..<48).map { (i: Int) -> UInt8 in i % 5 == 0 ? 39 : UInt8(30 + i % 7) })
        w.graphicControl(delay: 10, disposal: 3, transparentIndex: 39)
        w.image(x: 10, y: 5, width: 10, height: 10, indices: (0..<100).map { (i: Int) -> UInt8 in i % 3 == 0 ? 39 : UInt8(1 + i % 9) })
        w.graphicControl(delay: 3, disposal: 2)
        w.image(x: 0, y: 0, width: 24, height: 4, indices: [UInt8](repeating: 12, count: 96))
        w.graphicControl(delay: 20, disposal: 1, transparentIndex: 39)
        w.image(x: 5, y: 8, width: 4, height: 4, indices: [UInt8](repeating: 20, count: 16))
        w.trailer()
        return Data(w.bytes)
    }

    static let registry = CoderRegistry.withBuiltInCoders()

    /// Info and every frame of `data`, decoded by Zoetrope (converted to sRGB unless asked).
    static func decode(_ data: Data, colorOutput: ColorOutput = .sRGB) throws -> (info: AnimationInfo, frames: [PixelBuffer]) {
        let source = try registry.makeFrameSource(data: data, options: DecodingOptions(colorOutput: colorOutput))
        return (source.info, try (0..<source.info.frameCount).map { try source.decodeFrame(at: $0) })
    }

    /// Runs `zoetrope convert` in-process on files in a fresh folder; returns the run and the output bytes.
    static func convert(_ input: Data, inName: String, outName: String, _ extra: [String] = []) throws -> (ToolRun, Data?, URL) {
        let dir = try ToolRunner.temporaryDirectory()
        let inURL = dir.appendingPathComponent(inName), outURL = dir.appendingPathComponent(outName)
        try input.write(to: inURL)
        let run = ToolRun(["convert", inURL.path, outURL.path] + extra)
        return (run, try? Data(contentsOf: outURL), dir)
    }
}

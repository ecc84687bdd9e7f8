// Writes the examples' fixtures with the project's own encoders:
//   DIR/animated.png  an APNG, 8×8, four frames (red 100 ms, green 200 ms, blue 100 ms,
//                     white 10.5 ms), two plays
//   DIR/still.png     a still PNG, 8×8, yellow
// Usage: MakeExampleFixtures DIR
import Foundation
import ZoetropeCodecs

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: MakeExampleFixtures DIR\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[1], isDirectory: true)
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

func filled(_ rgba: [UInt8]) -> PixelBuffer {
    var pixels = PixelBuffer(width: 8, height: 8)
    for y in 0..<8 { for x in 0..<8 { pixels.setPixel(x: x, y: y, rgba) } }
    return pixels
}

let frames = [
    EncodingFrame(pixels: filled([255, 0, 0, 255]), duration: .milliseconds(100)),
    EncodingFrame(pixels: filled([0, 255, 0, 255]), duration: .milliseconds(200)),
    EncodingFrame(pixels: filled([0, 0, 255, 255]), duration: .milliseconds(100)),
    EncodingFrame(pixels: filled([255, 255, 255, 255]), duration: FrameDuration(numerator: 21, denominator: 2000)),
]
let animated = try APNGEncoder().encode(frames, canvasSize: PixelSize(width: 8, height: 8),
                                        options: EncodingOptions(loopCount: .plays(2)))
try animated.write(to: folder.appendingPathComponent("animated.png"))
try PNGEncoder().encode(filled([255, 255, 0, 255])).write(to: folder.appendingPathComponent("still.png"))
print("wrote animated.png (\(animated.count) bytes) and still.png in \(folder.path)")

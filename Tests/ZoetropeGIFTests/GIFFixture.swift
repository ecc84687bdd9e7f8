import Foundation
import Zoetrope
import ZoetropeGIF
import ZoetropeTestSupport

/// Colours and helpers shared by the GIF tests.
enum GIFFixture {
    static let black: GIFWriter.Color = (0, 0, 0)
    static let red: GIFWriter.Color = (255, 0, 0)
    static let green: GIFWriter.Color = (0, 255, 0)
    static let blue: GIFWriter.Color = (0, 0, 255)
    static let white: GIFWriter.Color = (255, 255, 255)
    /// Index 0 black, 1 red, 2 green, 3 blue.
    static let palette = [black, red, green, blue]

    static let transparent: [UInt8] = [0, 0, 0, 0]
    static let opaqueBlack: [UInt8] = [0, 0, 0, 255]
    static let opaqueRed: [UInt8] = [255, 0, 0, 255]
    static let opaqueGreen: [UInt8] = [0, 255, 0, 255]
    static let opaqueBlue: [UInt8] = [0, 0, 255, 255]
    static let opaqueWhite: [UInt8] = [255, 255, 255, 255]

    static func source(_ bytes: [UInt8], options: DecodingOptions = .default) throws -> any FrameSource {
        try GIFCoder().makeFrameSource(data: Data(bytes), options: options)
    }

    /// Every frame, decoded in order.
    static func frames(_ bytes: [UInt8], options: DecodingOptions = .default) throws -> [PixelBuffer] {
        let source = try source(bytes, options: options)
        return try (0..<source.info.frameCount).map { try source.decodeFrame(at: $0) }
    }

    /// All pixels of a buffer as RGBA quadruples, row by row.
    static func pixels(_ buffer: PixelBuffer) -> [[UInt8]] {
        (0..<buffer.height).flatMap { y in (0..<buffer.width).map { x in buffer.pixel(x: x, y: y) } }
    }

    /// The error `body` throws, as an `AnimatedImageError`.
    static func error(_ body: () throws -> Void) -> AnimatedImageError? {
        FrameSourceContract.error(body)
    }
}

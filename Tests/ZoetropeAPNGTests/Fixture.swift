import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// Colours and decoding shortcuts shared by the APNG tests.
enum Fixture {
    static let red: [UInt8] = [255, 0, 0, 255]
    static let green: [UInt8] = [0, 255, 0, 255]
    static let blue: [UInt8] = [0, 0, 255, 255]
    static let clear: [UInt8] = [0, 0, 0, 0]

    /// A decoding session straight from the coder, as its concrete type.
    static func source(_ data: Data, options: DecodingOptions = .default) throws -> APNGFrameSource {
        let source = try APNGCoder().makeFrameSource(data: data, options: options)
        return try #require(source as? APNGFrameSource)
    }

    /// Every frame, decoded in order.
    static func frames(_ data: Data, options: DecodingOptions = .default) throws -> [PixelBuffer] {
        let s = try source(data, options: options)
        return try (0..<s.info.frameCount).map { try s.decodeFrame(at: $0) }
    }

    /// A canvas-sized RGBA image of one colour.
    static func fill(_ width: Int, _ height: Int, _ rgba: [UInt8]) -> [UInt8] {
        Array([[UInt8]](repeating: rgba, count: width * height).joined())
    }
}

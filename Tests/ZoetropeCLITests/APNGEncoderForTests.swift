import Foundation
import Zoetrope
import ZoetropeAPNG
import ZoetropeEncoding

/// APNG inputs made with the project's own encoder.
enum APNGEncoderForTests {
    static func encode(_ frames: [EncodingFrame], loop: LoopCount) throws -> Data {
        try APNGEncoder().encode(frames, canvasSize: frames[0].pixels.size, options: EncodingOptions(loopCount: loop))
    }
}

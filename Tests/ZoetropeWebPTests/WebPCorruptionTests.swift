import Foundation
import Testing
import Zoetrope

@testable import ZoetropeWebP

/// Damaged files never crash: every cut and every flipped byte either fails with an
/// `AnimatedImageError` or decodes frames of the declared size.
@Suite struct WebPCorruptionTests {
    static func file() throws -> Data {
        var a = PixelBuffer(width: 10, height: 8)
        for y in 0..<8 { for x in 0..<10 { a.setPixel(x: x, y: y, [UInt8(x * 25), UInt8(y * 30), 60, UInt8(255 - x * 10)]) } }
        return try WebPFixture.animation(
            canvas: PixelSize(width: 10, height: 8),
            frames: [
                .init(pixels: a),
                .init(pixels: WebPFixture.solid(4, 4, (255, 0, 0, 128)), x: 2, y: 2, dispose: .background, lossyQuality: 50),
                .init(pixels: WebPFixture.solid(6, 2, (0, 0, 255, 255)), x: 4, y: 6, blend: .source),
            ], metadata: true)
    }

    /// Decodes everything it can; returns how many frames decoded.
    @discardableResult
    static func decodeAll(_ data: Data) -> Int {
        guard let source = try? WebPCoder().makeFrameSource(data: data, options: .default) else { return 0 }
        var decoded = 0
        var buffer = PixelBuffer()
        for i in (0..<source.info.frameCount).reversed() + Array(0..<source.info.frameCount) {
            do {
                try source.decodeFrame(at: i, into: &buffer)
                #expect(buffer.size == source.info.canvasSize)
                decoded += 1
            } catch {
                #expect(error is AnimatedImageError)
            }
        }
        return decoded
    }

    @Test func everyCutDecodesOrFailsCleanly() throws {
        let data = try Self.file()
        #expect(Self.decodeAll(data) == 6)
        for length in 0..<data.count {
            Self.decodeAll(data.prefix(length))
        }
    }

    @Test func flippedBytesDecodeOrFailCleanly() throws {
        let data = try Self.file()
        var rng: UInt64 = 12345
        for _ in 0..<2000 {
            var damaged = data
            for _ in 0..<3 {
                rng = rng &* 6364136223846793005 &+ 1442695040888963407
                let at = Int((rng >> 33) % UInt64(data.count))
                damaged[at] ^= UInt8(truncatingIfNeeded: rng >> 13) | 1
            }
            Self.decodeAll(damaged)
        }
    }
}

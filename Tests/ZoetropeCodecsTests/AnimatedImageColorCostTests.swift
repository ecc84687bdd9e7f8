import Foundation
import Testing
import ZoetropeCodecs
import ZoetropeTestSupport

/// An image whose frames are colour-converted counts the transform's tables in its cost, in
/// every format that carries a profile; an untagged one costs its poster and its bytes.
@Suite struct AnimatedImageColorCostTests {
    static let size = PixelSize(width: 20, height: 12)

    static var encoders: [(String, any AnimatedImageEncoder)] {
        [("gif", GIFEncoder()), ("apng", APNGEncoder()), ("webp", WebPEncoder()), ("avif", AVIFEncoder())]
    }

    @Test(arguments: 0..<4)
    func costCountsTheTransform(_ i: Int) throws {
        let (name, encoder) = Self.encoders[i]
        var pixels = PixelBuffer(width: Self.size.width, height: Self.size.height)
        for x in 0..<Self.size.width { pixels.setPixel(x: x, y: 0, [UInt8(x * 12), 40, 90, 255]) }
        let frames = [EncodingFrame(pixels: pixels, duration: .milliseconds(50))]
        let color = ColorInfo(iccProfile: ColorFixtures.iccProfile)
        let tagged = try encoder.encode(frames, canvasSize: Self.size, options: EncodingOptions(color: color))
        let untagged = try encoder.encode(frames, canvasSize: Self.size, options: EncodingOptions())
        let transform = try #require(try ColorManagement.transform(for: color, precedence: .rule(for: encoder.encodingFormat)))
        #expect(transform.retainedByteCount > 10_000, "\(name)")

        let image = try AnimatedImage(data: tagged, registry: .withBuiltInCoders())
        #expect(image.cost == image.poster.byteCount + tagged.count + transform.retainedByteCount, "\(name)")
        let plain = try AnimatedImage(data: untagged, registry: .withBuiltInCoders())
        #expect(plain.cost == plain.poster.byteCount + untagged.count, "\(name)")
        let stored = try AnimatedImage(data: tagged, registry: .withBuiltInCoders(), options: DecodingOptions(colorOutput: .stored))
        #expect(stored.cost == stored.poster.byteCount + tagged.count, "\(name)")
    }
}

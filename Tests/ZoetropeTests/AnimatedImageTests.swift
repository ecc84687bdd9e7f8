import Foundation
import Testing
import Zoetrope
import ZoetropeDemo

/// A coder whose decoding always fails: proves which paths decode and which do not.
struct UndecodableCoder: AnimatedImageCoder {
    static let format = ImageFormat(identifier: "nope", mediaType: "image/x-nope", fileExtensions: [])
    let kind: AnimationKind
    var formats: [ImageFormat] { [Self.format] }
    var minimumSniffLength: Int { 4 }
    func sniff(_ prefix: Data) -> SniffResult { ByteSignature.matches(prefix, ascii: "NOPE") ? .match(Self.format, kind) : .noMatch }
    func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource {
        throw AnimatedImageError.invalidData(format: Self.format, reason: "decoding was attempted")
    }
}

@Suite struct AnimatedImageTests {
    @Test func cachesPosterInfoAndBytesAndKnowsItsCost() throws {
        let registry = CoderRegistry(builtIn: [MagicCoder(magic: "DEMO", format: DemoAnimation.format)])
        let data = Data("DEMO and some bytes".utf8)
        let image = try AnimatedImage(data: data, registry: registry)
        #expect(image.isAnimated && image.info.frameCount == 100)
        #expect(image.poster == (try DemoAnimation.makeFrameSource().decodeFrame(at: 0)))
        #expect(image.cost == 756 * 304 * 4 + data.count)
        let small = try AnimatedImage(data: data, registry: registry, options: DecodingOptions(targetSize: PixelSize(width: 75, height: 75)))
        #expect(small.poster.size == PixelSize(width: 75, height: 30))
        #expect(small.cost == 75 * 30 * 4 + data.count)
        #expect(try small.makeFrameSource().decodeFrame(at: 3).size == PixelSize(width: 75, height: 30))
    }

    @Test func aStillSaysSoFromItsFirstBytesWithoutDecoding() throws {
        let still = CoderRegistry(builtIn: [UndecodableCoder(kind: .still)])
        #expect(try still.isAnimated(Data("NOPE".utf8)) == false)
        let unknown = CoderRegistry(builtIn: [UndecodableCoder(kind: .unknown)])
        #expect(throws: AnimatedImageError.invalidData(format: UndecodableCoder.format, reason: "decoding was attempted")) {
            try unknown.isAnimated(Data("NOPE".utf8))
        }
    }
}

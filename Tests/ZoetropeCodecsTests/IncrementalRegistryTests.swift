import Foundation
import Testing
import ZoetropeCodecs

/// Opening an incremental source from a stream's first bytes through the registry.
@Suite struct IncrementalRegistryTests {
    @Test func theFirstBytesChooseTheCoder() throws {
        let registry = CodecsFixture.registry()
        let gif = CodecsFixture.gif(delays: [10, 20, 30])
        // "GIF8" could still be either version: not enough to choose.
        #expect(try registry.makeIncrementalSource(prefix: gif.prefix(4)) == nil)
        let source = try #require(try registry.makeIncrementalSource(prefix: gif.prefix(20)))
        #expect(source.snapshot.receivedByteCount == 20)
        #expect(source.snapshot.format == .gif)
        try source.append(gif.dropFirst(20))
        #expect(try source.finish() == registry.makeFrameSource(data: gif).info)
    }

    @Test func bytesNoCoderKnowsAreRefused() {
        #expect(throws: AnimatedImageError.unrecognizedFormat(prefix: Array("hello, world".utf8))) {
            try CodecsFixture.registry().makeIncrementalSource(prefix: Data("hello, world".utf8))
        }
    }

    @Test func aCoderWithoutIncrementalDecodingSaysSo() {
        // A WebP header (RIFF, size, WEBP, VP8X): WebP decodes from the whole file only, for now.
        let webp = Data("RIFF".utf8) + Data([30, 0, 0, 0]) + Data("WEBPVP8X".utf8) + Data([10, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(throws: AnimatedImageError.unsupported(format: .webp, feature: "incremental decoding (the coder needs the whole file)")) {
            try CodecsFixture.registry().makeIncrementalSource(prefix: webp)
        }
    }
}

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

    /// A coder that needs the whole file: it matches "WHOLE" and does not adopt `IncrementalDecoding`.
    struct WholeFileOnlyCoder: AnimatedImageCoder {
        static let format = ImageFormat(identifier: "wholefile", mediaType: "image/x-wholefile", fileExtensions: ["whole"])
        var formats: [ImageFormat] { [Self.format] }
        var minimumSniffLength: Int { 5 }
        func sniff(_ prefix: Data) -> SniffResult {
            prefix.starts(with: Array("WHOLE".utf8)) ? .match(Self.format, .still) : .noMatch
        }
        func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource {
            throw AnimatedImageError.unsupported(format: Self.format, feature: "decoding (a test coder)")
        }
    }

    @Test func aCoderWithoutIncrementalDecodingSaysSo() {
        let registry = CodecsFixture.registry()
        registry.register(WholeFileOnlyCoder())
        #expect(throws: AnimatedImageError.unsupported(format: WholeFileOnlyCoder.format,
                                                       feature: "incremental decoding (the coder needs the whole file)")) {
            try registry.makeIncrementalSource(prefix: Data("WHOLE file".utf8))
        }
    }
}

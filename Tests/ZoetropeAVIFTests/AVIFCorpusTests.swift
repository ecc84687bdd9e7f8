import Foundation
import Testing
import Zoetrope
import ZoetropeAVIF
import ZoetropeTestSupport

/// The libavif 0.11 gaps, on the corpus files that show them. Each test shows as skipped
/// when `../shared/corpus` (or its file) is not beside the package.
@Suite struct AVIFCorpusTests {
    /// Whether the corpus has every one of `names` (under `avif/`).
    static func has(_ names: String...) -> Bool { names.allSatisfy { CorpusLocation.file("avif/" + $0) != nil } }

    func load(_ name: String) throws -> Data {
        try Data(contentsOf: try #require(CorpusLocation.file("avif/" + name)))
    }

    func frames(_ data: Data) throws -> [PixelBuffer] {
        let source = try AVIFCoder().makeFrameSource(data: data, options: .default)
        return try (0..<source.info.frameCount).map { try source.decodeFrame(at: $0) }
    }

    @Test(.enabled(if: has("libavif/colors-animated-8bpc.avif", "libavif/colors-animated-8bpc-audio.avif"), "../shared/corpus or its file is absent"))
    func sequenceWithAudioTrackDecodesLikeWithout() throws {
        let plain = try load("libavif/colors-animated-8bpc.avif"), audio = try load("libavif/colors-animated-8bpc-audio.avif")
        let source = try AVIFCoder().makeFrameSource(data: audio, options: .default)
        #expect(source.info.frameCount == 5)
        #expect(source.info.frameDurations == Array(repeating: FrameDuration(numerator: 1, denominator: 30), count: 5))
        #expect(source.info.loopCount == .once)
        #expect(try frames(audio) == frames(plain))
    }

    @Test(.enabled(if: has("libavif/colors-animated-8bpc-depth-exif-xmp.avif"), "../shared/corpus or its file is absent"))
    func depthAuxiliaryTrackIsNotAlpha() throws {
        let depth = try load("libavif/colors-animated-8bpc-depth-exif-xmp.avif")
        let source = try AVIFCoder().makeFrameSource(data: depth, options: .default)
        #expect(source.info.hasAlpha == false)
        #expect(source.info.loopCount == .infinite)
        for frame in try frames(depth) {
            #expect(stride(from: 3, to: frame.bytes.count, by: 4).allSatisfy { frame.bytes[$0] == 255 })
        }
    }

    @Test(.enabled(if: has("libavif/colors-animated-8bpc-alpha-exif-xmp.avif"), "../shared/corpus or its file is absent"))
    func alphaAuxiliaryTrackIsAlpha() throws {
        let alpha = try load("libavif/colors-animated-8bpc-alpha-exif-xmp.avif")
        let source = try AVIFCoder().makeFrameSource(data: alpha, options: .default)
        #expect(source.info.hasAlpha == true)
        #expect(try frames(alpha).contains { f in stride(from: 3, to: f.bytes.count, by: 4).contains { f.bytes[$0] != 255 } })
    }

    @Test(.enabled(if: has("avif-sample-images/star-8bpc-with-alpha.avifs"), "../shared/corpus or its file is absent"))
    func itemReferenceToIDZeroIsRejected() throws {
        let star = try load("avif-sample-images/star-8bpc-with-alpha.avifs")
        #expect(throws: AnimatedImageError.invalidData(format: .avif, reason: "box 'iref' ('auxl' reference) names invalid item ID 0")) {
            try AVIFCoder().makeFrameSource(data: star, options: .default)
        }
    }

    @Test(.enabled(if: has("avif-sample-images/star-10bpc.avifs"), "../shared/corpus or its file is absent"))
    func editListWithoutRepeatPlaysOnce() throws {
        let star = try load("avif-sample-images/star-10bpc.avifs")
        let info = try AVIFCoder().makeFrameSource(data: star, options: .default).info
        #expect(info.loopCount == .once)
        #expect(info.storedLoopValue == 0)
        #expect(info.frameDurations == Array(repeating: .milliseconds(100), count: 5))
    }
}

import Foundation
import Testing
import Zoetrope
import ZoetropeAVIF
import ZoetropeTestSupport

/// The libavif 0.11 gaps, on the corpus files that show them. Skips (with a note) when
/// `../shared/corpus` is not beside the package.
@Suite struct AVIFCorpusTests {
    func load(_ name: String) -> Data? {
        guard let url = CorpusLocation.corpus()?.appendingPathComponent("avif/\(name)") else { return nil }
        guard let data = try? Data(contentsOf: url) else {
            print("AVIFCorpusTests: \(url.path) not found; skipping")
            return nil
        }
        return data
    }

    func frames(_ data: Data) throws -> [PixelBuffer] {
        let source = try AVIFCoder().makeFrameSource(data: data, options: .default)
        return try (0..<source.info.frameCount).map { try source.decodeFrame(at: $0) }
    }

    @Test func sequenceWithAudioTrackDecodesLikeWithout() throws {
        guard let plain = load("libavif/colors-animated-8bpc.avif"),
              let audio = load("libavif/colors-animated-8bpc-audio.avif") else { return }
        let source = try AVIFCoder().makeFrameSource(data: audio, options: .default)
        #expect(source.info.frameCount == 5)
        #expect(source.info.frameDurations == Array(repeating: FrameDuration(numerator: 1, denominator: 30), count: 5))
        #expect(source.info.loopCount == .once)
        #expect(try frames(audio) == frames(plain))
    }

    @Test func depthAuxiliaryTrackIsNotAlpha() throws {
        guard let depth = load("libavif/colors-animated-8bpc-depth-exif-xmp.avif") else { return }
        let source = try AVIFCoder().makeFrameSource(data: depth, options: .default)
        #expect(source.info.hasAlpha == false)
        #expect(source.info.loopCount == .infinite)
        for frame in try frames(depth) {
            #expect(stride(from: 3, to: frame.bytes.count, by: 4).allSatisfy { frame.bytes[$0] == 255 })
        }
    }

    @Test func alphaAuxiliaryTrackIsAlpha() throws {
        guard let alpha = load("libavif/colors-animated-8bpc-alpha-exif-xmp.avif") else { return }
        let source = try AVIFCoder().makeFrameSource(data: alpha, options: .default)
        #expect(source.info.hasAlpha == true)
        #expect(try frames(alpha).contains { f in stride(from: 3, to: f.bytes.count, by: 4).contains { f.bytes[$0] != 255 } })
    }

    @Test func itemReferenceToIDZeroIsRejected() throws {
        guard let star = load("avif-sample-images/star-8bpc-with-alpha.avifs") else { return }
        #expect(throws: AnimatedImageError.invalidData(format: .avif, reason: "box 'iref' ('auxl' reference) names invalid item ID 0")) {
            try AVIFCoder().makeFrameSource(data: star, options: .default)
        }
    }

    @Test func editListWithoutRepeatPlaysOnce() throws {
        guard let star = load("avif-sample-images/star-10bpc.avifs") else { return }
        let info = try AVIFCoder().makeFrameSource(data: star, options: .default).info
        #expect(info.loopCount == .once)
        #expect(info.storedLoopValue == 0)
        #expect(info.frameDurations == Array(repeating: .milliseconds(100), count: 5))
    }
}

import Foundation
import Testing
import Zoetrope

@Suite struct ErrorMessageTests {
    @Test func localizedDescriptionIsTheOneLineTheToolPrints() {
        let errors: [AnimatedImageError] = [
            .unrecognizedFormat(prefix: Array("not an image".utf8)),
            .truncated(format: .gif, completeFrames: 3, reason: "the file ends inside frame 3"),
            .unreadable(location: "/tmp/x.gif", reason: "no such file"),
        ]
        for error in errors {
            #expect((error as any Error).localizedDescription == error.description)
        }
        #expect(
            (errors[0] as any Error).localizedDescription
                == "unrecognized image format (no registered coder matches the content; first bytes: 6e 6f 74 20 61 6e 20 69)")
        #expect((errors[2] as any Error).localizedDescription == "/tmp/x.gif: no such file")
    }

    @Test func decodingGarbageThroughTheSharedAPIReadsAsOneClearLine() {
        do {
            _ = try AnimatedImage(data: Data("not an image".utf8), registry: CoderRegistry())
            Issue.record("garbage decoded")
        } catch {
            #expect(error.localizedDescription.hasPrefix("unrecognized image format (no registered coder matches the content"))
        }
    }

    @Test func frameCountMessagesNeverClaimACountTheDecoderDidNotMake() {
        // A decoder that stops counting at the limit reports allowed + 1.
        #expect(
            AnimatedImageError.limitExceeded(format: .gif, limit: .frameCount, requested: 4, allowed: 3).description
                == "gif: maxFrameCount exceeded: the file has more than 3 frames, the limit is 3")
        #expect(
            AnimatedImageError.limitExceeded(format: .webp, limit: .frameCount, requested: 6, allowed: 3).description
                == "webp: maxFrameCount exceeded: the file has 6 frames, the limit is 3")
        #expect(
            AnimatedImageError.limitExceeded(format: .gif, limit: .pixelsPerPlay, requested: 2048, allowed: 1024).description
                == "gif: maxPixelsPerPlay exceeded: the file asks for at least 2048 pixels in one play, the limit is 1024")
        #expect(
            AnimatedImageError.limitExceeded(format: .gif, limit: .canvasPixels, requested: .max, allowed: 100).description
                == "gif: maxCanvasPixels exceeded: the file asks for more than \(Int.max), the limit is 100")
    }

    @Test func aCompleteFileThatIsOnlyAPrefixOfASignatureNeedsMoreData() throws {
        let a = ImageFormat(identifier: "a", mediaType: "image/x-a", fileExtensions: ["a"])
        let r = CoderRegistry(builtIn: [MagicCoder(magic: "ABCDEF", format: a)])
        #expect(throws: AnimatedImageError.insufficientData(format: a, needed: 6, available: 3)) {
            try r.coder(for: Data("ABC".utf8))
        }
        #expect(throws: AnimatedImageError.insufficientData(format: a, needed: 6, available: 3)) {
            try r.isAnimated(Data("ABC".utf8))
        }
        #expect(throws: AnimatedImageError.unrecognizedFormat(prefix: [])) { try r.coder(for: Data()) }
        #expect(throws: AnimatedImageError.unrecognizedFormat(prefix: Array("ABX".utf8))) { try r.coder(for: Data("ABX".utf8)) }
    }
}

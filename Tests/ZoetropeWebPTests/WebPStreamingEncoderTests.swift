import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeWebP

/// WebPEncoder on the streaming API: frames one at a time, the premultiplied-input rule,
/// lossy and mixed modes.
@Suite struct WebPStreamingEncoderTests {
    let size = PixelSize(width: 24, height: 16)

    @Test func writerTakesFramesOneAtATime() throws {
        let canvases = WebPEncoderTests.canvases()
        let writer = try WebPEncoder().makeWriter(canvasSize: size, options: EncodingOptions(loopCount: .plays(3)))
        for (i, c) in canvases.enumerated() {
            try writer.add(EncodingFrame(pixels: c, duration: .milliseconds(Int64(20 + i))))
            #expect(writer.frameCount == i + 1)
        }
        let source = try WebPCoder().makeFrameSource(data: try writer.finish(), options: .default)
        #expect(source.info.loopCount == .plays(3))
        #expect(source.info.frameDurations == (0..<4).map { .milliseconds(Int64(20 + $0)) })
        for i in 0..<4 { #expect(try source.decodeFrame(at: i) == canvases[i]) }
        #expect(throws: AnimatedImageError.invalidArgument("WebPEncoder: frame added after finish()")) {
            try writer.add(EncodingFrame(pixels: canvases[0], duration: .milliseconds(1)))
        }
    }

    @Test func premultipliedInputIsUnpremultipliedFirst() throws {
        // Colours that survive premultiplication exactly (alpha 255, 0, or channel values 0/255).
        var straight = PixelBuffer(width: 4, height: 1)
        straight.setPixel(x: 0, y: 0, [255, 0, 255, 128])
        straight.setPixel(x: 1, y: 0, [10, 20, 30, 255])
        straight.setPixel(x: 2, y: 0, [0, 0, 0, 0])
        straight.setPixel(x: 3, y: 0, [0, 255, 0, 51])
        var premultiplied = straight
        premultiplied.premultiplyAlpha()
        let canvas = PixelSize(width: 4, height: 1)
        let a = try WebPEncoder().encode(
            [EncodingFrame(pixels: straight, duration: .milliseconds(50))], canvasSize: canvas, options: EncodingOptions())
        let b = try WebPEncoder().encode(
            [EncodingFrame(pixels: premultiplied, duration: .milliseconds(50))], canvasSize: canvas, options: EncodingOptions())
        #expect(a == b)
        #expect(try WebPCoder().makeFrameSource(data: b, options: .default).decodeFrame(at: 0) == straight)
    }

    @Test func lossyIsSmallerAndClose() throws {
        // A gradient with grain (photo-like): lossy at q 50 must be smaller than lossless and close.
        var frames: [EncodingFrame] = []
        var rng = SplitMix64(seed: 7)
        for k in 0..<3 {
            var b = PixelBuffer(width: 64, height: 64)
            for y in 0..<64 {
                for x in 0..<64 {
                    let n = Int(rng.next() % 9)
                    b.setPixel(x: x, y: y, [UInt8(x * 3 + n), UInt8(y * 3 + n), UInt8(k * 60 + n), 255])
                }
            }
            frames.append(EncodingFrame(pixels: b, duration: .milliseconds(100)))
        }
        let canvas = PixelSize(width: 64, height: 64)
        let lossless = try WebPEncoder().encode(frames, canvasSize: canvas, options: EncodingOptions())
        let lossy = try WebPEncoder().encode(frames, canvasSize: canvas, options: EncodingOptions(quality: 50))
        let mixed = try WebPEncoder(mixed: true).encode(frames, canvasSize: canvas, options: EncodingOptions(quality: 50))
        #expect(lossy.count < lossless.count)
        #expect(mixed.count <= lossless.count)
        for file in [lossy, mixed] {
            let source = try WebPCoder().makeFrameSource(data: file, options: .default)
            #expect(source.info.frameCount == 3)
            for i in 0..<3 {
                let d = try source.decodeFrame(at: i)
                let worst = zip(d.bytes, frames[i].pixels.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
                #expect(worst <= 40, "frame \(i) differs by \(worst)")
            }
        }
    }

    @Test func refusesBadOptions() {
        #expect(throws: AnimatedImageError.invalidArgument("quality is 0…100, got 101")) {
            try WebPEncoder().makeWriter(canvasSize: size, options: EncodingOptions(quality: 101))
        }
        #expect(throws: AnimatedImageError.invalidArgument("WebP stores 1…65535 plays (or forever), got 0")) {
            try WebPEncoder().makeWriter(canvasSize: size, options: EncodingOptions(loopCount: .plays(0)))
        }
        #expect(throws: AnimatedImageError.invalidArgument("WebPEncoder needs at least one frame")) {
            try WebPEncoder().makeWriter(canvasSize: size, options: EncodingOptions()).finish()
        }
    }
}

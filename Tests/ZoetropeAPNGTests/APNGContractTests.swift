import Foundation
import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeAPNG

/// APNG sources keep the `FrameSource` contract (`FrameSourceContract`).
@Suite struct APNGContractTests {
    static let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255], blue: [UInt8] = [0, 0, 255, 255]

    /// Every disposal and blend, restarting from 0, 2 and 3.
    static let mixed = APNGWriter.animation(
        width: 4, height: 2,
        frames: [
            .solid(width: 4, height: 2, red),
            .solid(x: 1, width: 2, height: 2, [0, 255, 0, 128], disposeOp: 2, blendOp: 1),
            .solid(width: 4, height: 2, blue, disposeOp: 1),  // replaces everything
            .solid(x: 3, y: 1, width: 1, height: 1, green, blendOp: 1),  // after a full clear
            .solid(width: 2, height: 1, [9, 9, 9, 9], disposeOp: 2),
            .solid(x: 2, width: 2, height: 2, red, blendOp: 1),
            .solid(x: 1, y: 1, width: 2, height: 1, [40, 50, 60, 70], disposeOp: 2, blendOp: 1),
        ]
    ).data

    @Test(arguments: [
        DecodingOptions.default, DecodingOptions(pixelFormat: .rgba8Premultiplied),
        DecodingOptions(targetSize: PixelSize(width: 2, height: 1)),
    ])
    func mixedAnimationKeepsTheContract(options: DecodingOptions) {
        #expect(FrameSourceContract(coder: APNGCoder(), data: Self.mixed, options: options).violations() == [])
    }

    @Test func framesDecodedStraightIntoTheBufferKeepTheContract() {
        #expect(FrameSourceContract(coder: APNGCoder(), data: APNGDirectDecodingTests.file).violations() == [])
    }

    @Test func aStillPNGKeepsTheContract() {
        let still = APNGWriter.stillPNG(width: 5, height: 3, rgba: (0..<15).flatMap { [UInt8($0 * 16), 90, 20, 255] })
        #expect(FrameSourceContract(coder: APNGCoder(), data: still).violations() == [])
    }

    /// Generated animations over every disposal, blend and rectangle, starting with a
    /// covering frame disposed to previous (a restart there must start from a cleared canvas).
    @Test(arguments: CompositingCase.generated())
    func generatedCasesKeepTheContract(_ c: CompositingCase) {
        // Premultiplied output always goes through the canvas (no frame decoded straight
        // into the caller's buffer), so restarts are exercised there too.
        for options in [DecodingOptions.default, DecodingOptions(pixelFormat: .rgba8Premultiplied)] {
            #expect(
                FrameSourceContract(coder: APNGCoder(), data: c.apng, options: options, cuts: 2).violations() == [],
                "\(c), \(options.pixelFormat)")
        }
    }

    /// Frame 0 leaves the canvas clear; frame 1 covers the 2×2 canvas in opaque black and
    /// is disposed to previous; frame 2 is a white pixel at (0, 0), frame 3 a red one at
    /// (1, 0). Frame 2 reached after frames 3 and 1 shows no red pixel, whether frame 1 is
    /// decoded straight into the buffer or through the canvas (premultiplied output; all
    /// pixels here are opaque or transparent, so the values are the same).
    @Test(arguments: [DecodingOptions.default, DecodingOptions(pixelFormat: .rgba8Premultiplied)])
    func frameTwoAfterASeekBackShowsNoStalePixels(options: DecodingOptions) throws {
        let file = CompositingCase.coveringSecondFrameDisposedToPrevious.apng
        let white: [UInt8] = [255, 255, 255, 255], clear: [UInt8] = [0, 0, 0, 0], red: [UInt8] = [255, 0, 0, 255]
        let black: [UInt8] = [0, 0, 0, 255]
        let source = try Fixture.source(file, options: options)
        #expect(try source.decodeFrame(at: 2).bytes == [white, clear, clear, clear].flatMap { $0 })
        #expect(try source.decodeFrame(at: 3).bytes == [white, red, clear, clear].flatMap { $0 })
        #expect(try source.decodeFrame(at: 1).bytes == [black, black, black, black].flatMap { $0 })
        #expect(try source.decodeFrame(at: 2).bytes == [white, clear, clear, clear].flatMap { $0 })
    }
}

/// APNG frames that keep to one corner (after a first frame that covers the canvas, as the
/// format asks) give the pixels of a whole canvas at every size.
@Suite struct APNGDrawnAreaTests {
    @Test(arguments: CompositingCase.inACorner(pastTheEdge: false))
    func framesEqualTheWholeCanvasReference(_ c: CompositingCase) throws {
        #expect(try c.framesDifferingFromTheReference(coder: APNGCoder(), data: c.apng, apng: true) == [], "\(c)")
    }
}

extension APNGDrawnAreaTests {
    /// Opaque frames covering the canvas decode straight into the caller's buffer: the
    /// canvas is never allocated. Premultiplied output goes through it.
    @Test func framesDecodedStraightIntoTheCallersBufferAllocateNoCanvas() throws {
        let side = 256, canvasBytes = side * side * 4
        let frames = (0..<3).map { k in
            APNGWriter.Frame(
                width: side, height: side, rgba: (0..<side * side).flatMap { p in [UInt8(k * 80), UInt8(p % 256), 7, 255] },
                disposeOp: 0, blendOp: 0)
        }
        let data = APNGWriter.animation(width: side, height: side, frames: frames).data
        let source = try APNGCoder().makeFrameSource(data: data, options: .default)
        for i in 0..<3 { #expect(try source.decodeFrame(at: i).pixel(x: 3, y: 0) == [UInt8(i * 80), 3, 7, 255]) }
        #expect(source.retainedByteCount < canvasBytes / 2, "\(source.retainedByteCount) bytes")
        let premultiplied = try APNGCoder().makeFrameSource(data: data, options: DecodingOptions(pixelFormat: .rgba8Premultiplied))
        _ = try premultiplied.decodeFrame(at: 1)
        #expect(premultiplied.retainedByteCount >= canvasBytes)
    }
}

import Foundation
import Testing
import Zoetrope
import ZoetropeGIF
import ZoetropeTestSupport

/// GIF sources keep the `FrameSource` contract (`FrameSourceContract`), over fixtures that
/// restart from different frames.
@Suite struct GIFContractTests {
    typealias F = GIFFixture

    /// Twelve 6×4 frames mixing every disposal, transparency and two canvas-clearing
    /// points, so seeking restarts from different frames.
    static func mixedAnimation() -> [UInt8] {
        var w = GIFWriter(width: 6, height: 4, globalColors: F.palette)
        w.loop(0)
        var generator = SplitMix64(seed: 3)
        for i in 0..<12 {
            let x = Int(generator.next() % 4), y = Int(generator.next() % 3)
            let width = i % 5 == 0 ? 6 : 2, height = i % 5 == 0 ? 4 : 2
            let fx = width == 6 ? 0 : x, fy = height == 4 ? 0 : y
            let disposal = [1, 2, 3, 0][i % 4]
            w.graphicControl(delay: 5 + i, disposal: disposal, transparentIndex: i % 3 == 1 ? 0 : nil)
            w.image(
                x: fx, y: fy, width: width, height: height,
                indices: (0..<width * height).map { _ in UInt8(generator.next() % 4) })
        }
        return w.file
    }

    @Test(arguments: [
        DecodingOptions.default, DecodingOptions(pixelFormat: .rgba8Premultiplied),
        DecodingOptions(targetSize: PixelSize(width: 3, height: 2)),
    ])
    func mixedAnimationKeepsTheContract(options: DecodingOptions) {
        let contract = FrameSourceContract(coder: GIFCoder(), data: Data(Self.mixedAnimation()), options: options)
        #expect(contract.violations() == [])
    }

    @Test func keyFramesInTheMiddleKeepTheContract() {
        #expect(FrameSourceContract(coder: GIFCoder(), data: Data(GIFSeekCostTests.file())).violations() == [])
    }

    /// A frame whose LZW data stops early covers less than its placement says: restarts must
    /// not start from it.
    @Test func aFrameWhoseDataStopsEarlyKeepsTheContract() {
        var w = GIFWriter(width: 4, height: 2, globalColors: F.palette)
        w.image(width: 4, height: 2, indices: [1, 1, 1, 1, 1, 1, 1, 1])
        w.image(x: 1, y: 0, width: 2, height: 2, indices: [2, 2, 2, 2])
        // An opaque full frame whose data ends (end code) after two pixels: the rest shows frame 1.
        w.image(width: 4, height: 2, minimumCodeSize: 2, lzwData: GIFWriter.packCodes([(4, 3), (3, 3), (3, 3), (5, 3)]))
        w.image(x: 0, y: 0, width: 1, height: 1, indices: [2])
        w.image(x: 3, y: 1, width: 1, height: 1, indices: [1])
        var contract = FrameSourceContract(coder: GIFCoder(), data: Data(w.file))
        #expect(contract.violations() == ["seek to frame 3 decoded 5 frames; its restart frame 0 allows 4"])
        // The seek that finds frame 2 out draws it once, then again from frame 0: one frame more.
        contract.discoveryAllowance = 1
        #expect(contract.violations() == [])
    }

    /// Generated animations over every disposal and rectangle, starting with a covering
    /// frame disposed to previous (a restart there must start from a cleared canvas).
    @Test(arguments: CompositingCase.generated())
    func generatedCasesKeepTheContract(_ c: CompositingCase) {
        // Premultiplied output always goes through the canvas (no frame decoded straight
        // into the caller's buffer), so restarts are exercised there too.
        for options in [DecodingOptions.default, DecodingOptions(pixelFormat: .rgba8Premultiplied)] {
            #expect(
                FrameSourceContract(coder: GIFCoder(), data: c.gif, options: options, cuts: 2).violations() == [],
                "\(c), \(options.pixelFormat)")
        }
    }
}

/// A GIF whose frames keep to one corner of its screen is decoded on a canvas that holds
/// only that corner, with the pixels of a whole canvas.
@Suite struct GIFDrawnAreaTests {
    @Test(arguments: CompositingCase.inACorner(pastTheEdge: true))
    func framesEqualTheWholeCanvasReference(_ c: CompositingCase) throws {
        #expect(try c.framesDifferingFromTheReference(coder: GIFCoder(), data: c.gif, apng: false) == [], "\(c)")
        #expect(
            FrameSourceContract(coder: GIFCoder(), data: c.gif, options: DecodingOptions(targetSize: PixelSize(width: 13, height: 10)), cuts: 2)
                .violations() == [], "\(c)")
    }

    /// A bomb's shape: an 8000×8000 screen, one 25×25 image in its bottom-right corner.
    @Test func aSmallImageOnAHugeScreenCostsTheImageNotTheScreen() throws {
        var w = GIFWriter(width: 8000, height: 8000, globalColors: [(0, 0, 0), (250, 120, 10)])
        w.image(x: 7975, y: 7975, width: 25, height: 25, indices: [UInt8](repeating: 1, count: 625))
        let data = Data(w.file)
        let source = try GIFCoder().makeFrameSource(data: data, options: DecodingOptions(targetSize: PixelSize(width: 320, height: 320)))
        let frame = try source.decodeFrame(at: 0)
        #expect(frame.size == PixelSize(width: 320, height: 320))
        #expect(frame.pixel(x: 319, y: 319) == [250, 120, 10, 255], "the image fills the last output pixel's 25×25 box")
        #expect(frame.pixel(x: 318, y: 319) == [0, 0, 0, 0] && frame.pixel(x: 0, y: 0) == [0, 0, 0, 0])
        #expect(source.retainedByteCount < 64 << 10, "\(source.retainedByteCount) bytes held for a 25×25 image")
        let full = try GIFCoder().makeFrameSource(data: data, options: .default)
        let whole = try full.decodeFrame(at: 0)
        #expect(whole.pixel(x: 7999, y: 7999) == [250, 120, 10, 255] && whole.pixel(x: 7974, y: 7999) == [0, 0, 0, 0])
        #expect(full.retainedByteCount < 64 << 10, "the canvas holds the image; the frame handed out is the caller's")
    }
}

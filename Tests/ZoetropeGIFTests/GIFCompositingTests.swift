import Testing
import Zoetrope
import ZoetropeGIF
import ZoetropeTestSupport

/// The browser rules for building each full canvas, pinned with hand-written files.
@Suite struct GIFCompositingTests {
    typealias F = GIFFixture

    @Test func localColourTableWinsOverGlobal() throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: F.palette)
        w.image(width: 2, height: 1, indices: [1, 2])
        w.image(width: 2, height: 1, indices: [1, 0], localColors: [F.white, F.blue])
        let frames = try F.frames(w.file)
        #expect(F.pixels(frames[0]) == [F.opaqueRed, F.opaqueGreen])
        #expect(F.pixels(frames[1]) == [F.opaqueBlue, F.opaqueWhite])
    }

    @Test func transparentIndexShowsWhatIsUnder() throws {
        var w = GIFWriter(width: 3, height: 1, globalColors: F.palette)
        w.image(width: 3, height: 1, indices: [1, 1, 1])
        w.graphicControl(transparentIndex: 0)
        w.image(width: 3, height: 1, indices: [0, 3, 0])
        let frames = try F.frames(w.file)
        #expect(F.pixels(frames[1]) == [F.opaqueRed, F.opaqueBlue, F.opaqueRed])
    }

    @Test func transparentIndexPastThePaletteMakesNothingTransparent() throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: F.palette)
        w.graphicControl(transparentIndex: 200)
        w.image(width: 2, height: 1, indices: [0, 2])
        let frames = try F.frames(w.file)
        #expect(F.pixels(frames[0]) == [F.opaqueBlack, F.opaqueGreen])
    }

    @Test func transparentFirstFrameStartsFromATransparentCanvasIgnoringTheBackgroundColour() throws {
        var w = GIFWriter(width: 3, height: 1, globalColors: F.palette, backgroundIndex: 2)
        w.graphicControl(transparentIndex: 0)
        w.image(x: 1, y: 0, width: 2, height: 1, indices: [0, 1])
        let frames = try F.frames(w.file)
        #expect(F.pixels(frames[0]) == [F.transparent, F.transparent, F.opaqueRed])
    }

    @Test(arguments: [0, 1])
    func disposalNoneAndKeepLeaveTheFrame(disposal: Int) throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: F.palette)
        w.graphicControl(disposal: disposal)
        w.image(width: 2, height: 1, indices: [1, 1])
        w.image(x: 1, y: 0, width: 1, height: 1, indices: [3])
        let frames = try F.frames(w.file)
        #expect(F.pixels(frames[1]) == [F.opaqueRed, F.opaqueBlue])
    }

    @Test func disposeToBackgroundClearsToTransparentNotTheBackgroundColour() throws {
        var w = GIFWriter(width: 3, height: 1, globalColors: F.palette, backgroundIndex: 3)
        w.image(width: 3, height: 1, indices: [1, 1, 1])
        w.graphicControl(disposal: 2)
        w.image(x: 1, y: 0, width: 1, height: 1, indices: [2])
        w.image(x: 0, y: 0, width: 1, height: 1, indices: [3])
        let frames = try F.frames(w.file)
        #expect(F.pixels(frames[1]) == [F.opaqueRed, F.opaqueGreen, F.opaqueRed])
        #expect(F.pixels(frames[2]) == [F.opaqueBlue, F.transparent, F.opaqueRed])
    }

    @Test(arguments: [3, 4])
    func restoreToPreviousPutsBackTheCanvas(disposal: Int) throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: F.palette)
        w.image(width: 2, height: 1, indices: [1, 1])
        w.graphicControl(disposal: disposal)
        w.image(width: 2, height: 1, indices: [2, 2])
        w.image(x: 1, y: 0, width: 1, height: 1, indices: [3])
        let frames = try F.frames(w.file)
        #expect(F.pixels(frames[1]) == [F.opaqueGreen, F.opaqueGreen])
        #expect(F.pixels(frames[2]) == [F.opaqueRed, F.opaqueBlue])
    }

    @Test func undefinedDisposalsFiveToSevenLeaveTheFrame() throws {
        var w = GIFWriter(width: 1, height: 1, globalColors: F.palette)
        w.graphicControl(disposal: 6)
        w.image(width: 1, height: 1, indices: [1])
        w.graphicControl(transparentIndex: 0)
        w.image(width: 1, height: 1, indices: [0])
        #expect(F.pixels(try F.frames(w.file)[1]) == [F.opaqueRed])
    }

    @Test func chainOfRestoreToPreviousAlwaysReturnsToTheLastKeptCanvas() throws {
        var w = GIFWriter(width: 3, height: 1, globalColors: F.palette)
        w.image(width: 3, height: 1, indices: [1, 1, 1])  // kept: red red red
        for x in 0..<3 {
            w.graphicControl(disposal: 3)
            w.image(x: x, y: 0, width: 1, height: 1, indices: [3])
        }
        w.graphicControl(transparentIndex: 0)
        w.image(width: 3, height: 1, indices: [0, 0, 0])
        let frames = try F.frames(w.file)
        #expect(F.pixels(frames[1]) == [F.opaqueBlue, F.opaqueRed, F.opaqueRed])
        #expect(F.pixels(frames[2]) == [F.opaqueRed, F.opaqueBlue, F.opaqueRed])
        #expect(F.pixels(frames[3]) == [F.opaqueRed, F.opaqueRed, F.opaqueBlue])
        #expect(F.pixels(frames[4]) == [F.opaqueRed, F.opaqueRed, F.opaqueRed])
    }

    @Test func interlacedRowsLandInPlace() throws {
        let height = 10
        let indices = (0..<height).flatMap { y in [UInt8(y % 4), UInt8((y + 1) % 4)] }
        var w = GIFWriter(width: 2, height: height, globalColors: F.palette)
        w.image(width: 2, height: height, indices: indices, interlaced: true)
        let frame = try F.frames(w.file)[0]
        let colours = [F.opaqueBlack, F.opaqueRed, F.opaqueGreen, F.opaqueBlue]
        for y in 0..<height {
            #expect(frame.pixel(x: 0, y: y) == colours[y % 4], "row \(y)")
            #expect(frame.pixel(x: 1, y: y) == colours[(y + 1) % 4], "row \(y)")
        }
    }

    @Test func framesPastTheGrownCanvasAreClipped() throws {
        var w = GIFWriter(width: 2, height: 2, globalColors: F.palette)
        w.image(x: 1, y: 1, width: 2, height: 2, indices: [1, 1, 1, 1])  // canvas becomes 3×3
        w.image(x: 2, y: 2, width: 2, height: 2, indices: [3, 3, 3, 3])  // only (2,2) is inside
        let frames = try F.frames(w.file)
        #expect(frames[0].size == PixelSize(width: 3, height: 3))
        #expect(
            F.pixels(frames[0]) == [
                F.transparent, F.transparent, F.transparent,
                F.transparent, F.opaqueRed, F.opaqueRed,
                F.transparent, F.opaqueRed, F.opaqueRed,
            ])
        #expect(
            F.pixels(frames[1]) == [
                F.transparent, F.transparent, F.transparent,
                F.transparent, F.opaqueRed, F.opaqueRed,
                F.transparent, F.opaqueRed, F.opaqueBlue,
            ])
    }

    @Test func zeroSizeFrameIsAFrameThatChangesNothing() throws {
        var w = GIFWriter(width: 1, height: 1, globalColors: F.palette)
        w.graphicControl(delay: 7)
        w.image(width: 1, height: 1, indices: [2])
        w.graphicControl(delay: 9)
        w.imageDescriptor(width: 0, height: 0)
        w.raw([2, 0])  // code size, empty data
        let source = try F.source(w.file)
        #expect(source.info.frameDurations == [.milliseconds(70), .milliseconds(90)])
        #expect(F.pixels(try source.decodeFrame(at: 1)) == [F.opaqueGreen])
    }

    @Test func lastOfSeveralGraphicControlsWins() throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: F.palette)
        w.image(width: 2, height: 1, indices: [1, 1])
        w.graphicControl(delay: 100, disposal: 0, transparentIndex: nil)
        w.comment("between")
        w.graphicControl(delay: 20, disposal: 0, transparentIndex: 0)
        w.image(width: 2, height: 1, indices: [0, 2])
        w.image(width: 2, height: 1, indices: [0, 3])  // no graphic control of its own
        let source = try F.source(w.file)
        #expect(source.info.frameDurations == [.zero, .milliseconds(200), .zero])
        #expect(F.pixels(try source.decodeFrame(at: 1)) == [F.opaqueRed, F.opaqueGreen])
        #expect(F.pixels(try source.decodeFrame(at: 2)) == [F.opaqueBlack, F.opaqueBlue])
    }

    @Test func plainTextIsNotRenderedAndTheImageAfterItIs() throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: F.palette)
        w.graphicControl(delay: 30)
        w.plainText("Hi", width: 2, height: 1)
        w.image(width: 2, height: 1, indices: [3, 1])
        let source = try F.source(w.file)
        #expect(source.info.frameCount == 1)
        #expect(source.info.frameDurations == [.milliseconds(300)])
        #expect(F.pixels(try source.decodeFrame(at: 0)) == [F.opaqueBlue, F.opaqueRed])
    }

    @Test func missingColourTableDrawsOpaqueBlackAndKeepsTransparency() throws {
        // As Chromium (Wuffs): with neither a local nor a global table every index has no
        // colour and is drawn opaque black; the transparent index still draws nothing.
        var w = GIFWriter(width: 2, height: 1)
        w.graphicControl(transparentIndex: 0)
        w.image(width: 2, height: 1, indices: [0, 0])
        let clear = try F.source(w.file)
        #expect(F.pixels(try clear.decodeFrame(at: 0)) == [F.transparent, F.transparent])
        #expect(clear.info.warnings.isEmpty)

        var black = GIFWriter(width: 2, height: 1)
        black.image(width: 2, height: 1, indices: [0, 1])
        let source = try F.source(black.file)
        #expect(F.pixels(try source.decodeFrame(at: 0)) == [F.opaqueBlack, F.opaqueBlack])
        #expect(source.info.warnings.count == 1)
        #expect(source.info.warnings.first?.contains("no colour table") == true)
    }

    @Test func largeImageRoundTripsThroughTableResets() throws {
        // 256 colours of noise: the LZW table fills and restarts several times.
        var generator = SplitMix64(seed: 7)
        let width = 97, height = 131
        let indices = (0..<width * height).map { _ in UInt8(truncatingIfNeeded: generator.next() >> 56) }
        let palette = (0..<256).map { i -> GIFWriter.Color in (UInt8(i), UInt8(255 - i), UInt8(i / 2)) }
        var w = GIFWriter(width: width, height: height, globalColors: palette)
        w.image(width: width, height: height, indices: indices)
        let frame = try F.frames(w.file)[0]
        var mismatches = 0
        for (i, idx) in indices.enumerated() {
            let c = palette[Int(idx)]
            if frame.pixel(x: i % width, y: i / width) != [c.r, c.g, c.b, 255] { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }
}

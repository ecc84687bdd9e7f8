import Testing
import Zoetrope
import ZoetropeGIF
import ZoetropeTestSupport

/// What the first pass reports before any pixel is decoded: frames, raw delays, plays, canvas.
@Suite struct GIFInfoTests {
    @Test func rawDelaysAreCentisecondsAsMillisecondsWithoutClamping() throws {
        var w = GIFWriter(width: 1, height: 1, globalColors: GIFFixture.palette)
        for delay in [0, 1, 5, 10, 250] {
            w.graphicControl(delay: delay)
            w.image(width: 1, height: 1, indices: [1])
        }
        w.image(width: 1, height: 1, indices: [1])  // no graphic control: delay 0
        let info = try GIFFixture.source(w.file).info
        #expect(info.frameCount == 6)
        #expect(
            info.frameDurations == [
                .zero, .milliseconds(10), .milliseconds(50), .milliseconds(100),
                .milliseconds(2500), .zero,
            ])
        #expect(info.format == .gif)
    }

    @Test func noLoopBlockPlaysOnce() throws {
        var w = GIFWriter(width: 1, height: 1, globalColors: GIFFixture.palette)
        w.image(width: 1, height: 1, indices: [1])
        w.image(width: 1, height: 1, indices: [2])
        let info = try GIFFixture.source(w.file).info
        #expect(info.loopCount == .once)
        #expect(info.storedLoopValue == nil)
    }

    @Test(arguments: [
        ("NETSCAPE2.0", 0, LoopCount.infinite), ("NETSCAPE2.0", 1, .plays(2)),
        ("NETSCAPE2.0", 3, .plays(4)), ("NETSCAPE2.0", 65535, .plays(65536)),
        ("ANIMEXTS1.0", 0, .infinite), ("ANIMEXTS1.0", 2, .plays(3)),
    ])
    func loopBlockStoresRepetitions(identifier: String, stored: Int, plays: LoopCount) throws {
        var w = GIFWriter(width: 1, height: 1, globalColors: GIFFixture.palette)
        w.loop(stored, identifier: identifier)
        w.image(width: 1, height: 1, indices: [1])
        let info = try GIFFixture.source(w.file).info
        #expect(info.loopCount == plays)
        #expect(info.storedLoopValue == stored)
    }

    @Test func unknownApplicationBlockIsNotALoop() throws {
        var w = GIFWriter(width: 1, height: 1, globalColors: GIFFixture.palette)
        w.loop(0, identifier: "XMP DataXMP")
        w.image(width: 1, height: 1, indices: [1])
        #expect(try GIFFixture.source(w.file).info.loopCount == .once)
    }

    @Test func gif87aDecodes() throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: GIFFixture.palette, version: "87a")
        w.image(width: 2, height: 1, indices: [1, 3])
        let frames = try GIFFixture.frames(w.file)
        #expect(frames.count == 1)
        #expect(GIFFixture.pixels(frames[0]) == [GIFFixture.opaqueRed, GIFFixture.opaqueBlue])
    }

    @Test func canvasGrowsToHoldTheFirstFrameOnly() throws {
        var w = GIFWriter(width: 2, height: 2, globalColors: GIFFixture.palette)
        w.image(x: 1, y: 1, width: 3, height: 2, indices: [1, 1, 1, 1, 1, 1])
        w.image(x: 4, y: 4, width: 5, height: 5, indices: [UInt8](repeating: 2, count: 25))
        let info = try GIFFixture.source(w.file).info
        #expect(info.canvasSize == PixelSize(width: 4, height: 3))
    }

    @Test func fileWithoutImagesIsOneTransparentFrame() throws {
        var w = GIFWriter(width: 2, height: 1, globalColors: GIFFixture.palette)
        w.comment("nothing to see")
        let frames = try GIFFixture.frames(w.file)
        #expect(frames.count == 1)
        #expect(GIFFixture.pixels(frames[0]) == [GIFFixture.transparent, GIFFixture.transparent])
    }

    @Test func emptyLogicalScreenWithoutImagesIsRejected() {
        var w = GIFWriter(width: 0, height: 1, globalColors: GIFFixture.palette)
        w.comment("empty")
        let error = GIFFixture.error { _ = try GIFFixture.source(w.file) }
        guard case .invalidData(.gif, _)? = error else {
            Issue.record("expected invalidData, got \(String(describing: error))")
            return
        }
    }
}

import Testing
import Zoetrope
import ZoetropeDemo
import ZoetropeTestSupport

@Suite struct DemoAnimationTests {
    @Test func infoIsAFiveSecondCountdown() throws {
        let s = try DemoAnimation.makeFrameSource()
        #expect(s.info.canvasSize == PixelSize(width: 756, height: 304))
        #expect(s.info.frameCount == 100)
        #expect(s.info.totalDuration == .seconds(5))
        #expect(s.info.loopCount == .infinite)
        #expect(s.info.allFramesByteCount == 756 * 304 * 4 * 100)
    }

    @Test func framesHaveTransparentCornersAnOpaquePanelAndAGrowingBar() throws {
        let s = try DemoAnimation.makeFrameSource()
        let first = try s.decodeFrame(at: 0), last = try s.decodeFrame(at: 99)
        #expect(first.pixel(x: 0, y: 0)[3] == 0, "rounded corner is transparent")
        #expect(first.pixel(x: 3, y: 150)[3] == 128, "the rim is half transparent")
        #expect(first.pixel(x: 20, y: 150) == [24, 32, 64, 255], "the panel is opaque")
        #expect(first.pixel(x: 700, y: 240) == [255, 255, 255, 64], "the bar's track is translucent")
        #expect(last.pixel(x: 700, y: 240) == [80, 200, 120, 255], "the bar is full on the last frame")
        #expect(first != last)
    }

    @Test func keepsTheFrameSourceContract() {
        // Downsampled, so the kept frames the checker holds stay small.
        let contract = FrameSourceContract {
            try DemoAnimation.makeFrameSource(options: DecodingOptions(targetSize: PixelSize(width: 189, height: 189)))
        }
        #expect(contract.violations() == [])
    }

    @Test func downsamplesAndPremultipliesOnRequest() throws {
        let s = try DemoAnimation.makeFrameSource(
            options: DecodingOptions(
                pixelFormat: .rgba8Premultiplied,
                targetSize: PixelSize(width: 189, height: 189)))
        let f = try s.decodeFrame(at: 0)
        #expect(f.size == PixelSize(width: 189, height: 76))
        #expect(f.format == .rgba8Premultiplied)
    }

    @Test func limitsApplyToTheDemoToo() {
        #expect(throws: AnimatedImageError.limitExceeded(format: DemoAnimation.format, limit: .width, requested: 756, allowed: 100)) {
            try DemoAnimation.makeFrameSource(options: DecodingOptions(limits: Limits(maxWidth: 100)))
        }
    }
}

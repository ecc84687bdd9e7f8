import Testing
import Zoetrope

@Suite struct LimitsTests {
    @Test func aHugeGIFScreenFailsOnPixelsBeforeAnyAllocation() {
        #expect(
            throws: AnimatedImageError.limitExceeded(
                format: .gif, limit: .canvasPixels, requested: 65535 * 65535,
                allowed: Limits.default.maxCanvasPixels)
        ) {
            try Limits.default.checkSize(width: 65535, height: 65535, format: .gif)
        }
        #expect(throws: AnimatedImageError.limitExceeded(format: .gif, limit: .width, requested: 70_000, allowed: 65_535)) {
            try Limits.default.checkSize(width: 70_000, height: 1, format: .gif)
        }
        // A 65535×1 strip is only 256 KiB of pixels: allowed by default.
        #expect(throws: Never.self) { try Limits.default.checkSize(width: 65535, height: 1, format: .gif) }
    }

    @Test func overflowingSizesAreRefusedNotWrapped() {
        let l = Limits.none
        #expect(throws: AnimatedImageError.limitExceeded(format: .webp, limit: .canvasPixels, requested: .max, allowed: .max)) {
            try l.checkSize(width: .max, height: 3, format: .webp)
        }
        #expect(throws: AnimatedImageError.self) {
            try Limits.default.checkCanvases(PixelSize(width: 16_000, height: 16_000), count: 8, format: .apng)
        }
    }

    @Test func frameCountAndAllocation() throws {
        #expect(throws: AnimatedImageError.limitExceeded(format: .gif, limit: .frameCount, requested: 100_000, allowed: 10_000)) {
            try Limits.default.checkFrameCount(100_000, format: .gif)
        }
        try Limits.default.checkFrameCount(10_000, format: .gif)
        try Limits.default.checkCanvases(PixelSize(width: 1920, height: 1080), count: 3, format: .gif)
    }

    @Test func pixelsPerPlayBoundsFramesTimesCanvas() throws {
        // 500 frames of 1080p (1.04 × 10^9 pixels) fit the default 2^30; 200 × 4096² does not.
        try Limits.default.checkPixelsPerPlay(frameCount: 500, canvas: PixelSize(width: 1920, height: 1080), format: .gif)
        #expect(
            throws: AnimatedImageError.limitExceeded(
                format: .gif, limit: .pixelsPerPlay,
                requested: 200 * 4096 * 4096, allowed: 1 << 30)
        ) {
            try Limits.default.checkPixelsPerPlay(frameCount: 200, canvas: PixelSize(width: 4096, height: 4096), format: .gif)
        }
        #expect(throws: AnimatedImageError.limitExceeded(format: .webp, limit: .pixelsPerPlay, requested: .max, allowed: 1 << 30)) {
            try Limits.default.checkPixelsPerPlay(frameCount: .max, canvas: PixelSize(width: 8192, height: 8192), format: .webp)
        }
        try Limits.none.checkPixelsPerPlay(frameCount: 5_000, canvas: PixelSize(width: 8192, height: 8192), format: .webp)
    }

    @Test func errorsSayWhichFormatAndWhichLimit() {
        let e = AnimatedImageError.limitExceeded(format: .avif, limit: .frameCount, requested: 20, allowed: 10)
        #expect(e.description == "avif: maxFrameCount exceeded: the file has 20 frames, the limit is 10")
        #expect(
            AnimatedImageError.truncated(format: .gif, completeFrames: 1, reason: "no trailer").description
                == "gif: truncated after 1 complete frame: no trailer")
    }

    @Test func outputSizeFitsTheTargetKeepingAspect() {
        let o = DecodingOptions(targetSize: PixelSize(width: 378, height: 1000))
        #expect(o.outputSize(forCanvas: PixelSize(width: 756, height: 304)) == PixelSize(width: 378, height: 152))
        let never = DecodingOptions(targetSize: PixelSize(width: 4000, height: 4000))
        #expect(never.outputSize(forCanvas: PixelSize(width: 756, height: 304)) == PixelSize(width: 756, height: 304))
        let tiny = DecodingOptions(targetSize: PixelSize(width: 1, height: 1))
        #expect(tiny.outputSize(forCanvas: PixelSize(width: 756, height: 304)) == PixelSize(width: 1, height: 1))
    }
}

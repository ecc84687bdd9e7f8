import Testing
import Zoetrope
import ZoetropeAVIF
import ZoetropeEncoding
import ZoetropeGIF
import ZoetropeWebP

@testable import ZoetropeTool

/// What `convert` asks each encoder for when options are left out or given.
@Suite struct ConvertPlanTests {
    static func plan(_ args: [String]) throws -> ConvertPlan {
        try ConvertPlan(ConvertCommand.arguments(args), outPath: args[1])
    }

    @Test func avifDefaultsToQuality70In444AtSpeed6() throws {
        let plan = try Self.plan(["in.gif", "out.avif"])
        let avif = try #require(plan.encoder as? AVIFEncoder)
        #expect(plan.quality == 70)
        #expect(AVIFEncoder.quantizer(forQuality: 70) == 19)
        #expect(avif.chroma == .yuv444 && avif.speed == 6 && avif.depth == 8 && avif.codec == "aom")
        #expect(avif.content == .automatic)
        let natural = try #require(Self.plan(["in.gif", "out.avif", "--content", "natural"]).encoder as? AVIFEncoder)
        #expect(natural.content == .natural)
    }

    @Test func avifOptionsOverrideTheDefaults() throws {
        let plan = try Self.plan(["in.gif", "out.avif", "--chroma", "420", "--quality", "80", "--speed", "8"])
        let avif = try #require(plan.encoder as? AVIFEncoder)
        #expect(plan.quality == 80)
        #expect(avif.chroma == .yuv420 && avif.speed == 8)
        #expect(try Self.plan(["in.gif", "out.avif", "--lossless"]).quality == nil)
    }

    /// SVT-AV1 writes only 4:2:0, so `--codec svt` alone asks for it; a 4:4:4 asked for is
    /// refused by the encoder when the conversion starts.
    @Test(.enabled(if: AVIFEncoder.isAvailable(codec: "svt"), "libavif here has no svt encoder"))
    func svtDefaultsTo420() throws {
        let avif = try #require(Self.plan(["in.gif", "out.avif", "--codec", "svt"]).encoder as? AVIFEncoder)
        #expect(avif.codec == "svt" && avif.chroma == .yuv420)
        let asked = try #require(Self.plan(["in.gif", "out.avif", "--codec", "svt", "--chroma", "444"]).encoder as? AVIFEncoder)
        #expect(asked.chroma == .yuv444)
        #expect(throws: AnimatedImageError.self) {
            try asked.makeWriter(canvasSize: PixelSize(width: 64, height: 64), options: EncodingOptions(quality: 70))
        }
    }

    @Test func webpDefaultsToLossless() throws {
        let plan = try Self.plan(["in.gif", "/some/dir/out.webp"])
        let webp = try #require(plan.encoder as? WebPEncoder)
        #expect(plan.quality == nil && !webp.mixed && webp.method == 4)
        #expect(webp.spillDirectory?.path == "/some/dir")  // the output's, so finishing is a rename
        #expect(try #require(Self.plan(["in.gif", "-", "--format", "webp"]).encoder as? WebPEncoder).spillDirectory == nil)
    }

    /// `--lossy N` reaches the GIF encoder as given (gifsicle's scale); without it GIF is exact.
    @Test func gifLossyIsPassedOnAsGiven() throws {
        #expect(try #require(Self.plan(["in.gif", "out.gif"]).encoder as? GIFEncoder).lossy == nil)
        #expect(try #require(Self.plan(["in.gif", "out.gif", "--lossy", "60"]).encoder as? GIFEncoder).lossy == 60)
        #expect(try #require(Self.plan(["in.gif", "out.gif", "--lossy", "20000"]).encoder as? GIFEncoder).lossy == 20000)
    }
}

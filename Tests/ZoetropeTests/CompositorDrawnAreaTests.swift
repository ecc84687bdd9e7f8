import Testing
import ZoetropeTestSupport

@testable import Zoetrope

/// A compositor that holds only the drawn area gives the pixels of one that holds the whole
/// canvas, at full size and downsampled, and allocates only the area its frames reach.
@Suite struct CompositorDrawnAreaTests {
    /// A frame: rectangle, solid or per-pixel colours, disposal and blend.
    struct Step {
        var rect: PixelRect
        var pixels: [UInt8]
        var dispose: DisposeMode
        var blend: BlendMode
    }

    static func steps(seed: UInt64, canvas: PixelSize, count: Int) -> [Step] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            // Mostly small rectangles near the bottom-right corner, some reaching past the
            // canvas edge, now and then one anywhere: the held area starts small and grows.
            let w = Int.random(in: 1...12, using: &rng), h = Int.random(in: 1...9, using: &rng)
            let far = Int.random(in: 0..<6, using: &rng) == 0
            let x = far ? Int.random(in: 0..<canvas.width, using: &rng) : canvas.width - Int.random(in: 1...16, using: &rng)
            let y = far ? Int.random(in: 0..<canvas.height, using: &rng) : canvas.height - Int.random(in: 1...12, using: &rng)
            let pixels = (0..<w * h).flatMap { _ -> [UInt8] in
                let a: UInt8 = [0, 255, 128, 255][Int.random(in: 0..<4, using: &rng)]
                return [UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng), a]
            }
            return Step(
                rect: PixelRect(x: x, y: y, width: w, height: h), pixels: pixels,
                dispose: [.none, .background, .previous][Int.random(in: 0..<3, using: &rng)],
                blend: Bool.random(using: &rng) ? .over : .source)
        }
    }

    static func apply(_ step: Step, to c: inout Compositor) {
        c.beginFrame(rect: step.rect, dispose: step.dispose)
        step.pixels.withUnsafeBytes { c.draw($0, bytesPerRow: step.rect.width * 4, rect: step.rect, blend: step.blend) }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func copiesEqualAWholeCanvasAtEverySizeAndAlphaMode(seed: UInt64) {
        let canvas = PixelSize(width: 61, height: 47)
        var whole = Compositor(size: canvas)
        var drawn = Compositor(size: canvas, holdsDrawnAreaOnly: true)
        #expect(drawn.canvas.byteCount == 0, "nothing is allocated before a frame draws")
        for (i, step) in Self.steps(seed: seed, canvas: canvas, count: 24).enumerated() {
            Self.apply(step, to: &whole)
            Self.apply(step, to: &drawn)
            if i == 12 {
                whole.reset()
                drawn.reset()
            }
            for size in [canvas, PixelSize(width: 20, height: 15), PixelSize(width: 7, height: 31)] {
                for format in [PixelFormat.rgba8, .rgba8Premultiplied] {
                    var a = PixelBuffer(), b = PixelBuffer()
                    whole.copyCanvas(into: &a, size: size, format: format)
                    drawn.copyCanvas(into: &b, size: size, format: format)
                    #expect(a.size == b.size && a.packedBytes == b.packedBytes, "frame \(i) at \(size) \(format)")
                }
            }
        }
        #expect(whole.holdsWholeCanvas && whole.region == whole.bounds)
    }

    @Test func aFrameInACornerOfAHugeCanvasCostsItsRectangle() {
        let canvas = PixelSize(width: 8000, height: 8000)
        var c = Compositor(size: canvas, holdsDrawnAreaOnly: true)
        Self.apply(
            Step(
                rect: PixelRect(x: 7990, y: 3, width: 10, height: 2), pixels: [UInt8](repeating: 200, count: 80), dispose: .previous, blend: .source),
            to: &c)
        #expect(c.region == PixelRect(x: 7990, y: 3, width: 10, height: 2))
        #expect(c.canvas.byteCount == 10 * 2 * 4 && c.byteCount < 1024, "the frame's pixels and the area saved for dispose-to-previous")
        var out = PixelBuffer()
        c.copyCanvas(into: &out, size: PixelSize(width: 800, height: 800), format: .rgba8)
        // (7990…7999, 3…4) falls in output pixel (799, 0), whose 10×10 box it fills a fifth of.
        #expect(out.pixel(x: 799, y: 0) == [200, 200, 200, 40], "alpha 200 over a fifth of the box")
        #expect(out.pixel(x: 798, y: 0) == [0, 0, 0, 0] && out.pixel(x: 799, y: 1) == [0, 0, 0, 0])
    }

    @Test func growingKeepsWhatWasDrawnAndGrowsInFewSteps() {
        let canvas = PixelSize(width: 4096, height: 4096)
        var c = Compositor(size: canvas, holdsDrawnAreaOnly: true)
        var regions: [PixelRect] = []
        // Frames creeping outwards one pixel at a time, from the centre.
        for k in 0..<600 {
            let rect = PixelRect(x: 2048 - k, y: 2048 - k, width: 1, height: 1)
            Self.apply(Step(rect: rect, pixels: [UInt8(k % 256), 1, 2, 255], dispose: .none, blend: .source), to: &c)
            if regions.last != c.region { regions.append(c.region) }
        }
        #expect(regions.count <= 12, "\(regions.count) allocations for 600 frames: \(regions)")
        var out = PixelBuffer()
        c.copyCanvas(into: &out, format: .rgba8)
        for k in [0, 1, 299, 599] { #expect(out.pixel(x: 2048 - k, y: 2048 - k) == [UInt8(k % 256), 1, 2, 255]) }
        #expect(out.pixel(x: 2049, y: 2048) == [0, 0, 0, 0])
    }

    @Test func reserveAllocatesExactlyTheUnionWhenAFrameFirstDraws() {
        var c = Compositor(size: PixelSize(width: 100, height: 100), holdsDrawnAreaOnly: true)
        c.reserve(PixelRect(x: 90, y: 95, width: 20, height: 20))
        c.reserve(PixelRect(x: 80, y: 95, width: 5, height: 1))
        #expect(c.region.isEmpty && c.canvas.byteCount == 0, "a plan allocates nothing")
        Self.apply(Step(rect: PixelRect(x: 50, y: 99, width: 1, height: 1), pixels: [1, 2, 3, 255], dispose: .none, blend: .source), to: &c)
        #expect(c.region == PixelRect(x: 50, y: 95, width: 50, height: 5), "the plan and the frame, not doubled")
        c.reserve(PixelRect(x: 0, y: 0, width: 1, height: 1))
        #expect(c.region == PixelRect(x: 0, y: 0, width: 100, height: 100), "an allocated canvas grows to the reservation exactly")
        var out = PixelBuffer()
        c.copyCanvas(into: &out, format: .rgba8)
        #expect(out.pixel(x: 50, y: 99) == [1, 2, 3, 255])
        var whole = Compositor(size: PixelSize(width: 100, height: 100))
        whole.reserve(PixelRect(x: 1, y: 1, width: 1, height: 1))
        #expect(whole.region == whole.bounds)
    }

    @Test func rectanglesUniteAndContain() {
        let a = PixelRect(x: 1, y: 2, width: 3, height: 4), b = PixelRect(x: 5, y: 0, width: 1, height: 1)
        let empty = PixelRect(x: 50, y: 50, width: 0, height: 3)
        #expect(a.union(b) == PixelRect(x: 1, y: 0, width: 5, height: 6))
        #expect(a.union(empty) == a && empty.union(a) == a)
        #expect(a.contains(PixelRect(x: 2, y: 3, width: 2, height: 3)) && !a.contains(b) && a.contains(empty))
        #expect(!empty.contains(a))
    }
}

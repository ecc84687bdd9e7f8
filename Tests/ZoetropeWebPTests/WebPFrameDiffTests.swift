import Testing
import Zoetrope
import ZoetropeTestSupport

@testable import ZoetropeWebP

/// The writer's exact changed rectangle (rows compared with `memcmp`) against the plainest
/// definition: the bounding box of every pixel that differs from the canvas a decoder shows,
/// offsets rounded down to even.
@Suite struct WebPFrameDiffTests {
    static func reference(_ previous: WebPPreviousCanvas, _ current: WebPCanvas, within r: PixelRect) -> PixelRect {
        var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        for y in r.y..<(r.y + r.height) {
            for x in r.x..<(r.x + r.width) where current.pixels[y * current.width + x] != previous.pixel(x, y) {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxY >= 0 else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        let ex = minX & ~1, ey = minY & ~1
        return PixelRect(x: ex, y: ey, width: maxX + 1 - ex, height: maxY + 1 - ey)
    }

    static func randomRect(_ rng: inout SplitMix64, width: Int, height: Int) -> PixelRect {
        let x = Int(rng.next() % UInt64(width)), y = Int(rng.next() % UInt64(height))
        let w = 1 + Int(rng.next() % UInt64(width - x)), h = 1 + Int(rng.next() % UInt64(height - y))
        return PixelRect(x: x, y: y, width: w, height: h)
    }

    @Test(arguments: 0..<200)
    func exactRectangleMatchesTheBoundingBoxOfDifferingPixels(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        let width = 1 + Int(rng.next() % 40), height = 1 + Int(rng.next() % 30)
        let canvas = WebPCanvas(width: width, height: height), current = WebPCanvas(width: width, height: height)
        // Few distinct values, so that changes often restore what the canvas had.
        for i in 0..<(width * height) { canvas.pixels[i] = UInt32(rng.next() % 3) * 0x4000_0000 }
        current.copy(from: canvas)
        for _ in 0..<Int(rng.next() % 4) {
            let r = Self.randomRect(&rng, width: width, height: height)
            for y in r.y..<(r.y + r.height) where rng.next() % 2 == 0 {
                for x in r.x..<(r.x + r.width) { current.pixels[y * width + x] = UInt32(rng.next() % 3) * 0x4000_0000 }
            }
        }
        let cleared: PixelRect? = rng.next() % 2 == 0 ? Self.randomRect(&rng, width: width, height: height) : nil
        let previous = WebPPreviousCanvas(canvas: canvas, cleared: cleared)
        let within = rng.next() % 2 == 0 ? current.fullRect : Self.randomRect(&rng, width: width, height: height)
        let got = WebPFrameDiff.changedRect(previous, current, within: within, tolerance: 0)
        let want = Self.reference(previous, current, within: within)
        #expect(got == want, "seed \(seed): \(width)×\(height), cleared \(String(describing: cleared)), within \(within)")
    }
}

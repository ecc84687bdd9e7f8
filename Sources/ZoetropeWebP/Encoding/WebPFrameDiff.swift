import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a frame differs from the canvas before it: the rectangle to store, whether blending
/// can rebuild it, and the rewrites that make a blended rectangle cheaper. Written for
/// `WebPStreamWriter`, after the choices libwebp's `WebPAnimEncoder` makes.
enum WebPFrameDiff {
    /// The largest per-channel difference (alpha-weighted) lossy encoding treats as "unchanged"
    /// at `quality`: 31 at quality 0 down to 1 at quality 100.
    static func lossyTolerance(quality: Float) -> Int {
        let v = (Double(quality) / 100).squareRoot()
        return Int(31 * (1 - v) + v + 0.5)
    }

    @inline(__always) static func similar(_ a: UInt32, _ b: UInt32, tolerance: Int) -> Bool {
        if tolerance == 0 { return a == b }
        let aa = Int(a >> 24), ba = Int(b >> 24)
        guard abs(aa - ba) <= tolerance else { return false }
        let limit = tolerance * 255
        @inline(__always) func channel(_ shift: UInt32) -> Bool {
            abs(Int((a >> shift) & 0xFF) * aa - Int((b >> shift) & 0xFF) * ba) <= limit
        }
        return channel(16) && channel(8) && channel(0)
    }

    /// The smallest rectangle inside `rect` outside which `current` equals `previous`
    /// (within `tolerance`), with even offsets (WebP stores offsets halved); empty when
    /// nothing changed.
    static func changedRect(
        _ previous: WebPPreviousCanvas, _ current: WebPCanvas, within rect: PixelRect,
        tolerance: Int
    ) -> PixelRect {
        if tolerance == 0 { return exactChangedRect(previous, current, within: rect) }
        let w = current.width, cur = current.pixels
        func same(_ x: Int, _ y: Int) -> Bool { similar(previous.pixel(x, y), cur[y * w + x], tolerance: tolerance) }
        var x0 = rect.x, x1 = rect.x + rect.width, y0 = rect.y, y1 = rect.y + rect.height
        while y0 < y1, (x0..<x1).allSatisfy({ same($0, y0) }) { y0 += 1 }
        guard y0 < y1 else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        while (x0..<x1).allSatisfy({ same($0, y1 - 1) }) { y1 -= 1 }
        while (y0..<y1).allSatisfy({ same(x0, $0) }) { x0 += 1 }
        while (y0..<y1).allSatisfy({ same(x1 - 1, $0) }) { x1 -= 1 }
        let ex = x0 & ~1, ey = y0 & ~1
        return PixelRect(x: ex, y: ey, width: x1 - ex, height: y1 - ey)
    }

    /// `changedRect` at tolerance 0, row by row: equal rows (most of a canvas whose frames
    /// touch little of it) are compared with `memcmp`, so a large canvas costs memory
    /// bandwidth per frame rather than a call per pixel.
    private static func exactChangedRect(
        _ previous: WebPPreviousCanvas, _ current: WebPCanvas,
        within rect: PixelRect
    ) -> PixelRect {
        let w = current.width
        let canvas = previous.canvas.pixels, cur = current.pixels
        let x0 = rect.x, x1 = rect.x + rect.width
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        // The parts of a row within [x0, x1): (start, end, cleared) in order. Two lists, made
        // once: rows that cross the cleared rectangle, and the others.
        let whole = [(x0, x1, false)]
        var banded = whole, band = 0..<0
        if let c = previous.cleared, c.x < x1, c.x + c.width > x0, c.height > 0 {
            let cx0 = max(c.x, x0), cx1 = min(c.x + c.width, x1)
            banded = [(x0, cx0, false), (cx0, cx1, true), (cx1, x1, false)].filter { $0.0 < $0.1 }
            band = c.y..<(c.y + c.height)
        }
        @inline(__always) func differs(_ y: Int, _ x: Int, _ cleared: Bool) -> Bool {
            cur[y * w + x] != (cleared ? 0 : canvas[y * w + x])
        }
        for y in rect.y..<(rect.y + rect.height) {
            let parts = band.contains(y) ? banded : whole
            var first: Int?
            for (s, e, cleared) in parts where first == nil {
                if !cleared, memcmp(cur + y * w + s, canvas + y * w + s, (e - s) * 4) == 0 { continue }
                first = (s..<e).first { differs(y, $0, cleared) }
            }
            guard let f = first else { continue }
            var last = f
            for (s, e, cleared) in parts.reversed() where e > f {
                if let l = (max(s, f)..<e).reversed().first(where: { differs(y, $0, cleared) }) { last = l; break }
            }
            minY = min(minY, y); maxY = y
            minX = min(minX, f); maxX = max(maxX, last)
        }
        guard minY <= maxY else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        let ex = minX & ~1, ey = minY & ~1
        return PixelRect(x: ex, y: ey, width: maxX + 1 - ex, height: maxY + 1 - ey)
    }

    /// Whether drawing `rect` of `current` over `previous` with alpha blending can give
    /// `current` exactly: every pixel that is not opaque must already be on the canvas.
    /// Also counts the pixels of `rect` equal to the canvas (the ones blending can skip).
    static func blendability(_ previous: WebPPreviousCanvas, _ current: WebPCanvas, rect: PixelRect)
        -> (possible: Bool, unchanged: Int)
    {
        let w = current.width, cur = current.pixels
        var unchanged = 0
        for y in rect.y..<(rect.y + rect.height) {
            let row = cur + y * w
            if let prev = previous.plainRow(y) {
                for x in rect.x..<(rect.x + rect.width) {
                    let c = row[x]
                    if c == prev[x] {
                        unchanged += 1
                    } else if c >> 24 != 0xFF {
                        return (false, unchanged)
                    }
                }
                continue
            }
            for x in rect.x..<(rect.x + rect.width) {
                let c = row[x]
                if c == previous.pixel(x, y) {
                    unchanged += 1
                } else if c >> 24 != 0xFF {
                    return (false, unchanged)
                }
            }
        }
        return (true, unchanged)
    }

    /// Makes the pixels of `rect` that equal the canvas transparent black (blending shows
    /// the canvas there). `restore` undoes it: with blending possible, every transparent
    /// black pixel of the rectangle equals the canvas.
    static func makeUnchangedTransparent(_ previous: WebPPreviousCanvas, _ current: WebPCanvas, rect: PixelRect) {
        let w = current.width, cur = current.pixels
        for y in rect.y..<(rect.y + rect.height) {
            let row = cur + y * w
            if let prev = previous.plainRow(y) {
                for x in rect.x..<(rect.x + rect.width) { row[x] = row[x] == prev[x] ? 0 : row[x] }
            } else {
                for x in rect.x..<(rect.x + rect.width) where row[x] == previous.pixel(x, y) { row[x] = 0 }
            }
        }
    }

    /// Undoes `makeUnchangedTransparent` (see there why it is exact).
    static func restore(_ previous: WebPPreviousCanvas, _ current: WebPCanvas, rect: PixelRect) {
        let w = current.width, cur = current.pixels
        for y in rect.y..<(rect.y + rect.height) {
            let row = cur + y * w
            if let prev = previous.plainRow(y) {
                for x in rect.x..<(rect.x + rect.width) { row[x] = row[x] == 0 ? prev[x] : row[x] }
            } else {
                for x in rect.x..<(rect.x + rect.width) where row[x] == 0 { row[x] = previous.pixel(x, y) }
            }
        }
    }

    /// For a blended lossy frame: each 8×8 block (aligned on the canvas) of `picture` (a copy
    /// of `rect`) that is opaque and equal to the canvas becomes one transparent colour, its
    /// average, which VP8 codes in almost nothing.
    static func flattenUnchangedBlocks(
        _ previous: WebPPreviousCanvas, rect: PixelRect,
        picture: UnsafeMutablePointer<UInt32>, stride: Int
    ) {
        var by = (rect.y + 7) & ~7
        while by + 8 <= rect.y + rect.height {
            var bx = (rect.x + 7) & ~7
            while bx + 8 <= rect.x + rect.width {
                var sum = (0, 0, 0), flat = true
                outer: for y in by..<(by + 8) {
                    for x in bx..<(bx + 8) {
                        let p = picture[(y - rect.y) * stride + (x - rect.x)]
                        guard p >> 24 == 0xFF, p == previous.pixel(x, y) else { flat = false; break outer }
                        sum.0 += Int((p >> 16) & 0xFF); sum.1 += Int((p >> 8) & 0xFF); sum.2 += Int(p & 0xFF)
                    }
                }
                if flat {
                    let colour = UInt32(sum.0 / 64) << 16 | UInt32(sum.1 / 64) << 8 | UInt32(sum.2 / 64)
                    for y in by..<(by + 8) {
                        for x in bx..<(bx + 8) { picture[(y - rect.y) * stride + (x - rect.x)] = colour }
                    }
                }
                bx += 8
            }
            by += 8
        }
    }

    /// Distinct colours in `rect`, counted up to `limit`.
    static func colourCount(_ current: WebPCanvas, rect: PixelRect, limit: Int) -> Int {
        var seen = Set<UInt32>(minimumCapacity: limit)
        let w = current.width
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) {
                seen.insert(current.pixels[y * w + x])
                if seen.count >= limit { return limit }
            }
        }
        return seen.count
    }
}

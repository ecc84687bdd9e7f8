import Zoetrope

/// Turns one frame (a canvas of packed colours, 0 = transparent) into a `GIFFramePlan` over
/// the canvas the decoder shows before it (`base`).
struct GIFFramePlanner {
    let width: Int
    let dither: GIFDither
    let quantizer = ColorQuantizer()

    /// Plans `frame` inside `rect` over `base`. Pixels equal to `base` may be left
    /// transparent ("keep"); transparent pixels of `frame` are transparent in `base` too
    /// (the writer's disposal choice guarantees it).
    func plan(frame: [UInt32], base: [UInt32], rect: PixelRect) -> GIFFramePlan {
        var all = ColorHistogram(), changed = ColorHistogram()
        var hasTransparent = false, hasKeep = false
        for y in rect.y..<rect.y + rect.height {
            let row = y * width
            for x in rect.x..<rect.x + rect.width {
                let c = frame[row + x]
                if c == 0 { hasTransparent = true; continue }
                if all.count <= 256 { all.add(c) }  // past 256 the exact path is out anyway
                if c == base[row + x] { hasKeep = true } else { changed.add(c) }
            }
        }
        if all.count + (hasTransparent ? 1 : 0) <= 256 {
            let palette = all.entries.map(\.colour)
            let t = hasTransparent || (hasKeep && palette.count < 256) ? palette.count : nil
            var mapper = PaletteMapper(palette: palette.isEmpty ? [0xFF00_0000] : palette)
            let drawn = indices(frame, base, rect, keep: false, transparent: t ?? 0, mapper: &mapper, quantised: false)
            guard hasKeep, let t else {
                return GIFFramePlan(rect: rect, palette: palette, transparentIndex: t, indices: drawn)
            }
            // Unchanged pixels show the same whether drawn or left transparent: the LZW
            // matcher picks, pixel by pixel, whichever continues a longer string.
            var flexible = [Bool](repeating: false, count: rect.width * rect.height)
            for y in 0..<rect.height {
                let row = (rect.y + y) * width + rect.x
                for x in 0..<rect.width where frame[row + x] != 0 && frame[row + x] == base[row + x] {
                    flexible[y * rect.width + x] = true
                }
            }
            return GIFFramePlan(rect: rect, palette: palette, transparentIndex: t, indices: drawn, flexible: flexible)
        }
        // Too many colours for one table: keep unchanged pixels, quantise the changed ones.
        let palette = changed.count <= 255 ? changed.entries.map(\.colour) : quantizer.palette(for: changed, maxColours: 255)
        var mapper = PaletteMapper(palette: palette)
        let t = palette.count
        let out = indices(frame, base, rect, keep: true, transparent: t, mapper: &mapper, quantised: changed.count > 255)
        return GIFFramePlan(rect: rect, palette: palette, transparentIndex: t, indices: out)
    }

    /// LZW minimum code size for a table of `count` entries (2…8).
    static func codeSize(_ count: Int) -> Int {
        var bits = 2
        while (1 << bits) < count { bits += 1 }
        return bits
    }

    /// Indices for `rect`: transparent pixels (and, with `keep`, unchanged ones) get
    /// `transparent`; the rest their nearest palette entry, dithered when `quantised`.
    private func indices(
        _ frame: [UInt32], _ base: [UInt32], _ rect: PixelRect, keep: Bool, transparent: Int,
        mapper: inout PaletteMapper, quantised: Bool
    ) -> [UInt8] {
        var out = [UInt8](repeating: UInt8(truncatingIfNeeded: transparent), count: rect.width * rect.height)
        let mode = quantised ? dither : .none
        // Floyd–Steinberg error rows (current and next), 3 channels, with a pixel of margin each side.
        var errors = mode == .floydSteinberg ? [Int32](repeating: 0, count: 2 * 3 * (rect.width + 2)) : []
        let stride = 3 * (rect.width + 2)
        for y in 0..<rect.height {
            let row = (rect.y + y) * width + rect.x
            if mode == .floydSteinberg {
                for i in 0..<stride { errors[i] = errors[stride + i]; errors[stride + i] = 0 }
            }
            for x in 0..<rect.width {
                let c = frame[row + x]
                if c == 0 || (keep && c == base[row + x]) { continue }
                var target = c
                switch mode {
                case .none: break
                case .ordered:
                    let t = (GIFFramePlanner.bayer[(y & 7) << 3 | (x & 7)] - 32) / 2
                    target = GIFFramePlanner.offset(c, t, t, t)
                case .floydSteinberg:
                    let e = 3 * (x + 1)
                    target = GIFFramePlanner.offset(c, (errors[e] + 8) >> 4, (errors[e + 1] + 8) >> 4, (errors[e + 2] + 8) >> 4)
                }
                let index = mapper.nearest(target)
                out[y * rect.width + x] = index
                if mode == .floydSteinberg {
                    let p = mapper.palette[Int(index)]
                    let e = 3 * (x + 1)
                    let diffs = (
                        Int32(target & 0xFF) - Int32(p & 0xFF), Int32(target >> 8 & 0xFF) - Int32(p >> 8 & 0xFF),
                        Int32(target >> 16 & 0xFF) - Int32(p >> 16 & 0xFF)
                    )
                    GIFFramePlanner.spread(&errors, at: e, stride: stride, diffs.0)
                    GIFFramePlanner.spread(&errors, at: e + 1, stride: stride, diffs.1)
                    GIFFramePlanner.spread(&errors, at: e + 2, stride: stride, diffs.2)
                }
            }
        }
        return out
    }

    /// Floyd–Steinberg weights (in sixteenths): 7 right, 3 below-left, 5 below, 1 below-right.
    @inline(__always)
    static func spread(_ errors: inout [Int32], at e: Int, stride: Int, _ d: Int32) {
        errors[e + 3] += d * 7
        errors[stride + e - 3] += d * 3
        errors[stride + e] += d * 5
        errors[stride + e + 3] += d
    }

    @inline(__always)
    static func offset(_ c: UInt32, _ dr: Int32, _ dg: Int32, _ db: Int32) -> UInt32 {
        let r = max(0, min(255, Int32(c & 0xFF) + dr)), g = max(0, min(255, Int32(c >> 8 & 0xFF) + dg))
        let b = max(0, min(255, Int32(c >> 16 & 0xFF) + db))
        return PaletteMapper.pack(UInt8(r), UInt8(g), UInt8(b))
    }

    /// The 8×8 Bayer matrix, values 0…63.
    static let bayer: [Int32] = [
        0, 32, 8, 40, 2, 34, 10, 42, 48, 16, 56, 24, 50, 18, 58, 26,
        12, 44, 4, 36, 14, 46, 6, 38, 60, 28, 52, 20, 62, 30, 54, 22,
        3, 35, 11, 43, 1, 33, 9, 41, 51, 19, 59, 27, 49, 17, 57, 25,
        15, 47, 7, 39, 13, 45, 5, 37, 63, 31, 55, 23, 61, 29, 53, 21,
    ]
}

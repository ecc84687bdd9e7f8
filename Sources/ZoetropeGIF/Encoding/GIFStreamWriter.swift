import CGIF
import Zoetrope
import ZoetropeEncoding

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `GIFEncoder`'s streaming session. One frame is held back: its disposal depends on the
/// frame after it, so frame *i* is written when frame *i + 1* arrives (or at `finish()`).
/// Memory: three canvases of packed colours and the output (and, from the first frame with
/// unchanged pixels, or from the first frame when `lossy` is set, one 2.6 MB LZW dictionary,
/// and while such a frame's layouts are compared three more copies of its indices; at the
/// end, while the table is renumbered, a second output when that one is smaller).
final class GIFStreamWriter: AnimatedImageWriter {
    private struct Pending {
        var canvas: [UInt32]
        var duration: FrameDuration
        var rect: PixelRect
    }

    private let width: Int, height: Int
    private let loopValue: Int?
    private let planner: GIFFramePlanner
    private var sink: GIFByteSink?
    /// What the decoder shows before the pending frame (source colours, 0 = transparent).
    private var base: [UInt32]
    private var pending: Pending?
    private var global: GIFGlobalTable?
    private var output: Data?
    private(set) var frameCount = 0

    /// Written as an `ICCRGBG1` extension after the loop block.
    private let profile: ICCProfile?
    /// `GIFEncoder.lossy` (0: exact).
    private let lossy: Int
    /// The LZW matcher's dictionary, made with the first frame that needs it and kept for
    /// the others.
    private var matcher: GIFLZWMatcher?

    init(canvasSize: PixelSize, loopValue: Int?, dither: GIFDither, lossy: Int = 0, profile: ICCProfile? = nil) {
        self.lossy = lossy
        width = canvasSize.width
        height = canvasSize.height
        self.loopValue = loopValue
        self.profile = profile
        planner = GIFFramePlanner(width: canvasSize.width, dither: dither)
        base = [UInt32](repeating: 0, count: canvasSize.width * canvasSize.height)
    }

    func add(_ frame: EncodingFrame) throws {
        guard output == nil else { throw AnimatedImageError.invalidArgument("GIFEncoder: frame added after finish()") }
        let pixels = try frame.straightPixels(canvasSize: PixelSize(width: width, height: height), index: frameCount)
        let canvas = GIFStreamWriter.threshold(pixels)
        if var p = pending {
            let disposal = chooseDisposal(&p, next: canvas)
            try emit(p, disposal: disposal, next: canvas)
        }
        let rect = GIFStreamWriter.changedRect(canvas, base, width: width, height: height) ?? PixelRect(x: 0, y: 0, width: 1, height: 1)
        pending = Pending(canvas: canvas, duration: frame.duration, rect: rect)
        frameCount += 1
    }

    func finish() throws -> Data {
        if let output { return output }
        guard let p = pending else { throw AnimatedImageError.invalidArgument("GIFEncoder needs at least one frame") }
        try emit(p, disposal: Int32(DISPOSE_DO_NOT))
        pending = nil
        guard let sink, let global else { throw AnimatedImageError.invalidArgument("GIFEncoder needs at least one frame") }
        // Now that every frame is known, the table can be put in the order that codes them in
        // the fewest bits.
        let data = GIFTableRenumbering.apply(to: try sink.close(patchingGlobalTable: global.finalEntries))
        output = data
        return data
    }

    /// Keep (DISPOSE_DO_NOT) or clear (DISPOSE_BACKGROUND) the pending frame, given the next
    /// canvas. Clearing is needed where the next frame is transparent over an opaque pixel;
    /// when such a pixel lies outside the pending rectangle, the rectangle grows to cover it.
    /// Otherwise the choice whose next rectangle is smaller wins (keep on a tie).
    private func chooseDisposal(_ p: inout Pending, next: [UInt32]) -> Int32 {
        var clear = PixelRect(x: 0, y: 0, width: 0, height: 0)
        var mustClear = false
        for y in 0..<height {
            let row = y * width
            for x in 0..<width where next[row + x] == 0 && p.canvas[row + x] != 0 {
                mustClear = true
                if !GIFStreamWriter.contains(p.rect, x, y) { clear = clear.union(PixelRect(x: x, y: y, width: 1, height: 1)) }
            }
        }
        p.rect = p.rect.union(clear)
        let cleared = area(afterClearing: p, next: next)
        if mustClear { return Int32(DISPOSE_BACKGROUND) }
        let kept = GIFStreamWriter.changedRect(next, p.canvas, width: width, height: height).map { $0.width * $0.height } ?? 0
        return cleared < kept ? Int32(DISPOSE_BACKGROUND) : Int32(DISPOSE_DO_NOT)
    }

    /// The area of the next frame's rectangle if the pending one is cleared after showing.
    private func area(afterClearing p: Pending, next: [UInt32]) -> Int {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<height {
            let row = y * width
            for x in 0..<width {
                let shown = GIFStreamWriter.contains(p.rect, x, y) ? 0 : p.canvas[row + x]
                if next[row + x] != shown {
                    minX = min(minX, x); maxX = max(maxX, x)
                    minY = min(minY, y); maxY = y
                }
            }
        }
        return maxY < 0 ? 0 : (maxX - minX + 1) * (maxY - minY + 1)
    }

    private func emit(_ p: Pending, disposal: Int32, next: [UInt32]? = nil) throws {
        var plan = planner.plan(frame: p.canvas, base: base, rect: p.rect)
        let isFirst = global == nil
        if global != nil {
            useGlobalTable(&plan)
        } else {
            let sink = try GIFByteSink()
            let table = GIFGlobalTable(palette: plan.palette, transparentIndex: plan.transparentIndex, animated: next != nil)
            try sink.putScreen(width: width, height: height, globalTable: table.entries)
            if let loopValue { try sink.putLoop(loopValue) }
            if let profile, !profile.data.isEmpty { try sink.putICCProfile(profile.data) }
            global = table
            plan.usesGlobalTable = true
            self.sink = sink
        }
        let codeSize = plan.codeSize  // the matcher never uses an index above the highest
        if lossy > 0 || plan.flexible != nil {
            // The colours the indices name: the global table (patched at the end, but its
            // used entries are final) or the frame's own. `base` keeps the source colours, as
            // for quantised frames.
            let colours = plan.usesGlobalTable ? global!.entries : plan.palette
            // The first frame is the backdrop of the ones after it: where the second frame
            // keeps a pixel, an error stays on screen until a later frame draws there, so
            // such pixels move a quarter as far (a sixteenth of the squared distance).
            var held: [Bool]? = nil
            if lossy > 0, isFirst, let next {
                held = []
                held!.reserveCapacity(p.rect.width * p.rect.height)
                for y in p.rect.y..<p.rect.y + p.rect.height {
                    let row = y * width
                    for x in p.rect.x..<p.rect.x + p.rect.width { held!.append(next[row + x] == p.canvas[row + x]) }
                }
            }
            var pass = matcher.take() ?? GIFLZWMatcher()
            let budget = lossy * 10, heldBudget = lossy * 10 / 16
            if let flexible = plan.flexible, let t = plan.transparentIndex {
                pass.applyBestLayout(
                    to: &plan.indices, flexible: flexible, held: held, colours: colours, transparent: t,
                    tableSize: 1 << codeSize, budget: budget, heldBudget: heldBudget)
            } else {
                pass.apply(
                    to: &plan.indices, held: held, colours: colours, transparent: plan.transparentIndex,
                    tableSize: 1 << codeSize, budget: budget, heldBudget: heldBudget)
            }
            matcher = pass
        }
        try sink!.putFrame(plan, codeSize: codeSize, delay: GIFEncoder.centiseconds(for: p.duration), disposal: disposal)
        let r = p.rect
        for y in r.y..<r.y + r.height {
            let row = y * width
            for x in r.x..<r.x + r.width { base[row + x] = disposal == Int32(DISPOSE_BACKGROUND) ? 0 : p.canvas[row + x] }
        }
        // Outside the rectangle the pending canvas already equals the base.
    }

    /// Rewrites `plan` onto the global table when every colour it uses is there or fits
    /// its free slots.
    private func useGlobalTable(_ plan: inout GIFFramePlan) {
        guard let map = global?.indices(for: plan.palette, needsTransparent: plan.transparentIndex != nil) else { return }
        var lut = [UInt8](repeating: 0, count: 256)
        for (i, g) in map.enumerated() { lut[i] = g }
        if let t = plan.transparentIndex, let gt = global?.transparent { lut[t] = UInt8(gt) }
        for i in plan.indices.indices { plan.indices[i] = lut[Int(plan.indices[i])] }
        plan.transparentIndex = plan.transparentIndex == nil ? nil : global?.transparent
        plan.palette = []
        plan.usesGlobalTable = true
    }

    /// Packed colours with alpha thresholded at 50 %: alpha < 128 → 0 (transparent), else opaque.
    static func threshold(_ pixels: PixelBuffer) -> [UInt32] {
        var out = [UInt32](repeating: 0, count: pixels.width * pixels.height)
        pixels.bytes.withUnsafeBytes { raw in
            let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for y in 0..<pixels.height {
                let row = p + y * pixels.bytesPerRow
                for x in 0..<pixels.width where row[x * 4 + 3] >= 128 {
                    out[y * pixels.width + x] = PaletteMapper.pack(row[x * 4], row[x * 4 + 1], row[x * 4 + 2])
                }
            }
        }
        return out
    }

    /// The smallest rectangle holding every pixel where `a` and `b` differ, or nil.
    static func changedRect(_ a: [UInt32], _ b: [UInt32], width: Int, height: Int) -> PixelRect? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<height {
            let row = y * width
            var x0 = 0
            while x0 < width, a[row + x0] == b[row + x0] { x0 += 1 }
            guard x0 < width else { continue }
            var x1 = width - 1
            while x1 > x0, a[row + x1] == b[row + x1] { x1 -= 1 }
            minX = min(minX, x0); maxX = max(maxX, x1)
            if minY == .max { minY = y }
            maxY = y
        }
        guard maxY >= 0 else { return nil }
        return PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    @inline(__always)
    static func contains(_ r: PixelRect, _ x: Int, _ y: Int) -> Bool {
        x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height
    }
}

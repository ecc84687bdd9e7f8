import Foundation
import Testing
import Zoetrope
import ZoetropeEncoding
import ZoetropeTestSupport

@testable import ZoetropeGIF

/// `GIFEncoder(lossy:)`: smaller image data, every pixel within the budget of the exact
/// encoding's (the first frame's backdrop within a quarter of it), transparency kept, and
/// nothing changed at 0.
@Suite struct GIFLossyTests {
    static let size = PixelSize(width: 120, height: 80)

    /// Smooth gradients in 200 colours with a transparent hole and a moving block: the
    /// kind of frame whose LZW strings break on every small step of colour. The gradients'
    /// green steps on every frame, so no pixel stays.
    static func frames() -> [EncodingFrame] {
        (0..<4).map { k in
            var b = PixelBuffer(width: size.width, height: size.height)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let hole = x >= 50 && x < 70 && y >= 30 && y < 50
                    let block = x >= 10 + 20 * k && x < 30 + 20 * k && y >= 5 && y < 25
                    let r = UInt8((x * 2 + y) / 10 * 10 % 250), bl = UInt8(((x + y) % 50) / 10 * 40)
                    let g = UInt8(((y * 3) / 12 * 12 + 6 * k) % 240)
                    b.setPixel(x: x, y: y, hole ? [0, 0, 0, 0] : block ? [250, 250, 250 - UInt8(2 * (x % 20)), 255] : [r, g, bl, 255])
                }
            }
            return EncodingFrame(pixels: b, duration: .milliseconds(100))
        }
    }

    static func decode(_ data: Data) throws -> [PixelBuffer] {
        let source = try GIFCoder().makeFrameSource(data: data, options: .default)
        return try (0..<source.info.frameCount).map { try source.decodeFrame(at: $0) }
    }

    /// The largest Euclidean RGB distance between two decodes, and whether alpha is equal everywhere.
    static func distance(_ a: PixelBuffer, _ b: PixelBuffer) -> (max: Double, sameAlpha: Bool) {
        var worst = 0, sameAlpha = true
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                if p[3] != q[3] { sameAlpha = false }
                guard p[3] != 0 else { continue }
                let d = (0..<3).map { (Int(p[$0]) - Int(q[$0])) * (Int(p[$0]) - Int(q[$0])) }.reduce(0, +)
                worst = max(worst, d)
            }
        }
        return (Double(worst).squareRoot(), sameAlpha)
    }

    /// On gifsicle's scale: 40 lets a colour move by up to 20, 360 by up to 60.
    @Test(arguments: [40, 360])
    func lossyIsSmallerAndEveryPixelWithinTheBudget(budget: Int) throws {
        let options = EncodingOptions(loopCount: .infinite)
        let exact = try GIFEncoder().encode(Self.frames(), canvasSize: Self.size, options: options)
        let lossy = try GIFEncoder(lossy: budget).encode(Self.frames(), canvasSize: Self.size, options: options)
        // At a distance of 60 the gradients' neighbouring steps (10–40 apart) merge into
        // longer strings.
        let most = budget >= 360 ? exact.count * 9 / 10 : exact.count - 1
        #expect(lossy.count <= most, "budget \(budget): \(lossy.count) bytes against \(exact.count)")
        let a = try Self.decode(exact), b = try Self.decode(lossy)
        #expect(a.count == b.count)
        var changed = false
        for (i, (x, y)) in zip(a, b).enumerated() {
            let d = Self.distance(x, y)
            #expect(d.sameAlpha, "frame \(i): transparency changed")
            #expect(d.max <= Double(10 * budget).squareRoot(), "frame \(i): a pixel moved by \(d.max)")
            changed = changed || d.max > 0
        }
        #expect(changed)
    }

    /// 96×64: a still backdrop of 8-pixel columns 15 apart in red, each striped 4 apart in
    /// green every 2 pixels, and a 16×16 block of columns 12 apart that moves 16 pixels a
    /// frame. At 60 (a distance of 24.5) the stripes (4) and the columns (12, 15) may merge;
    /// at a quarter of that distance (6.1) only the stripes.
    static func backdropAndBlock() -> [EncodingFrame] {
        (0..<4).map { k in
            var b = PixelBuffer(width: 96, height: 64)
            for y in 0..<64 {
                for x in 0..<96 {
                    let block = x >= 8 + 16 * k && x < 24 + 16 * k && y >= 24 && y < 40
                    let colour: [UInt8] =
                        block
                        ? [UInt8(250 - x % 16 / 4 * 12), 200, UInt8(40 + y % 2 * 4), 255]
                        : [UInt8(x / 8 * 15), UInt8(60 + x / 2 % 2 * 4), UInt8(y / 8 * 20), 255]
                    b.setPixel(x: x, y: y, colour)
                }
            }
            return EncodingFrame(pixels: b, duration: .milliseconds(100))
        }
    }

    /// An error on the first frame's backdrop (the pixels the second frame keeps) stays on
    /// screen until a later frame draws there, so those pixels move at most a quarter as far
    /// (a sixteenth of the squared distance); the others use the whole budget.
    @Test func theFirstFramesBackdropMovesAQuarterAsFar() throws {
        let source = Self.backdropAndBlock()
        let size = PixelSize(width: 96, height: 64)
        let lossy = try Self.decode(GIFEncoder(lossy: 60).encode(source, canvasSize: size, options: EncodingOptions()))
        #expect(lossy.count == source.count)
        func moved(_ frame: Int, _ x: Int, _ y: Int) -> Double {
            let p = source[frame].pixels.pixel(x: x, y: y), q = lossy[frame].pixel(x: x, y: y)
            return Double((0..<3).map { (Int(p[$0]) - Int(q[$0])) * (Int(p[$0]) - Int(q[$0])) }.reduce(0, +)).squareRoot()
        }
        var heldMost = 0.0, otherMost = 0.0
        for y in 0..<64 {
            for x in 0..<96 {
                let held = source[1].pixels.pixel(x: x, y: y) == source[0].pixels.pixel(x: x, y: y)
                if held { heldMost = max(heldMost, moved(0, x, y)) }
                for frame in source.indices where frame > 0 || !held { otherMost = max(otherMost, moved(frame, x, y)) }
            }
        }
        #expect(heldMost > 0, "the backdrop took no error: the check proves nothing")
        #expect(heldMost <= (600.0 / 16).squareRoot())
        #expect(otherMost > (600.0 / 16).squareRoot(), "nothing used more than the backdrop's budget")
        #expect(otherMost <= 600.0.squareRoot())
    }

    @Test func zeroIsExact() throws {
        let options = EncodingOptions(loopCount: .infinite)
        let exact = try GIFEncoder().encode(Self.frames(), canvasSize: Self.size, options: options)
        #expect(try GIFEncoder(lossy: 0).encode(Self.frames(), canvasSize: Self.size, options: options) == exact)
    }

    @Test func aBudgetOutOfRangeIsRefused() {
        let message = "GIF lossy is 0…20000 (gifsicle's scale: squared colour distance ÷ 10), got "
        #expect(throws: AnimatedImageError.invalidArgument(message + "20001")) {
            try GIFEncoder(lossy: 20001).makeWriter(canvasSize: Self.size, options: EncodingOptions())
        }
        #expect(throws: AnimatedImageError.invalidArgument(message + "-1")) {
            try GIFEncoder(lossy: -1).makeWriter(canvasSize: Self.size, options: EncodingOptions())
        }
    }

    /// A large flat frame grows LZW strings of about 2,000 pixels; the search must not recurse
    /// that deep, so it runs on a thread with a 512 KiB stack (a Dispatch worker's).
    @Test func aLargeFlatFrameEncodesOnASmallStack() throws {
        let side = 1400
        var flat = PixelBuffer(width: side, height: side)
        for y in 0..<side { for x in 0..<side { flat.setPixel(x: x, y: y, [20, 40, 60, 255]) } }
        let frame = EncodingFrame(pixels: flat, duration: .milliseconds(100))
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Result<Data, any Error>?>(nil)
        let thread = Thread {
            result.withLock {
                $0 = Result {
                    try GIFEncoder(lossy: 40).encode(
                        [frame], canvasSize: PixelSize(width: side, height: side),
                        options: EncodingOptions())
                }
            }
            done.signal()
        }
        thread.stackSize = 512 << 10  // a Dispatch worker's stack
        thread.start()
        done.wait()
        let data = try #require(result.withLock { $0 }).get()
        #expect(try Self.decode(data)[0] == flat)
    }

    /// The pass alone: strings extend over near colours only, never over transparency.
    @Test func thePassReplacesOnlyNearOpaqueColours() {
        // Palette: 0 black, 1 near black, 2 white, 3 transparent.
        let colours: [UInt32] = [0xFF00_0000, 0xFF03_0303, 0xFFFF_FFFF, 0]
        var indices: [UInt8] = [0, 0, 0, 0, 1, 0, 1, 0, 3, 0, 3, 2, 0, 2, 1]
        let source = indices
        var pass = GIFLZWMatcher()
        pass.apply(to: &indices, colours: colours, transparent: 3, tableSize: 4, budget: 100)  // a distance of 10
        #expect(indices != source)
        for (i, (s, o)) in zip(source, indices).enumerated() where s != o {
            #expect(s != 3 && o != 3, "position \(i)")
            #expect(Set([s, o]) == Set([0, 1]), "position \(i): \(s) became \(o)")
        }
    }

    /// One pass over many frames (as a writer keeps it) rewrites each frame as a new pass
    /// would: the dictionary of the frame before, made with another table size and cleared
    /// at 4095 codes on the way, leaves nothing behind.
    @Test func aReusedPassRewritesEachFrameAsAFreshOne() {
        var random = SplitMix64(seed: 7)
        let grey: [UInt32] = (0..<256).map { v in 0xFF00_0000 | UInt32(v) * 0x01_0101 }
        let frames: [(tableSize: Int, indices: [UInt8], transparent: Int?)] = [
            (256, (0..<20_000).map { _ in UInt8(random.next() % 256) }, nil),
            (4, (0..<5_000).map { _ in UInt8(random.next() % 4) }, 3),
            (256, (0..<20_000).map { i in UInt8((i / 7 + Int(random.next() % 3)) % 256) }, 0),
            (16, (0..<9_000).map { _ in UInt8(random.next() % 16) }, nil),
        ]
        var reused = GIFLZWMatcher()
        for (n, frame) in frames.enumerated() {
            var once = frame.indices, again = frame.indices
            var fresh = GIFLZWMatcher()
            fresh.apply(to: &once, colours: grey, transparent: frame.transparent, tableSize: frame.tableSize, budget: 6)
            reused.apply(to: &again, colours: grey, transparent: frame.transparent, tableSize: frame.tableSize, budget: 6)
            #expect(again == once, "frame \(n)")
            #expect(once != frame.indices, "frame \(n): nothing rewritten, the check proves nothing")
        }
    }
}

import Testing
import Zoetrope

/// Exact pixels for every dispose × blend × alpha mode.
@Suite struct CompositorTests {
    typealias RGBA = [UInt8]
    static let red: RGBA = [255, 0, 0, 255], blue: RGBA = [0, 0, 255, 255], green: RGBA = [0, 255, 0, 255]
    static let clear: RGBA = [0, 0, 0, 0]

    /// Draws solid `rgba` over `rect` with the given modes.
    func frame(_ c: inout Compositor, _ rect: PixelRect, _ rgba: RGBA, blend: BlendMode = .over, dispose: DisposeMode = .none) {
        c.beginFrame(rect: rect, dispose: dispose)
        let px = [UInt8](repeating: 0, count: max(0, rect.width * rect.height)).indices.flatMap { _ in rgba }
        px.withUnsafeBytes { c.draw($0, bytesPerRow: rect.width * 4, rect: rect, blend: blend) }
    }

    func pixels(_ c: Compositor, format: PixelFormat = .rgba8) -> [RGBA] {
        var out = PixelBuffer()
        c.copyCanvas(into: &out, format: format)
        return (0..<out.width).map { out.pixel(x: $0, y: 0) }
    }

    let full = PixelRect(x: 0, y: 0, width: 2, height: 1)
    let right = PixelRect(x: 1, y: 0, width: 1, height: 1)
    let left = PixelRect(x: 0, y: 0, width: 1, height: 1)

    @Test func startsTransparent() {
        let c = Compositor(size: PixelSize(width: 2, height: 1))
        #expect(pixels(c) == [Self.clear, Self.clear])
    }

    @Test(arguments: BlendMode.allCases)
    func disposeNoneKeepsTheFrame(blend: BlendMode) {
        var c = Compositor(size: PixelSize(width: 2, height: 1))
        frame(&c, full, Self.red, blend: blend)
        frame(&c, right, Self.blue, blend: blend, dispose: .none)
        frame(&c, left, Self.green, blend: blend)
        #expect(pixels(c) == [Self.green, Self.blue])
    }

    @Test(arguments: BlendMode.allCases)
    func disposeBackgroundClearsTheRectangleToTransparent(blend: BlendMode) {
        var c = Compositor(size: PixelSize(width: 2, height: 1))
        frame(&c, full, Self.red, blend: blend)
        frame(&c, right, Self.blue, blend: blend, dispose: .background)
        #expect(pixels(c) == [Self.red, Self.blue], "disposal happens after the frame is shown")
        frame(&c, left, Self.green, blend: blend)
        #expect(pixels(c) == [Self.green, Self.clear])
    }

    @Test(arguments: BlendMode.allCases)
    func disposePreviousRestoresTheCanvasBeforeTheFrame(blend: BlendMode) {
        var c = Compositor(size: PixelSize(width: 2, height: 1))
        frame(&c, full, Self.red, blend: blend)
        frame(&c, right, Self.blue, blend: blend, dispose: .previous)
        frame(&c, left, Self.green, blend: blend)
        #expect(pixels(c) == [Self.green, Self.red])
    }

    @Test func chainsOfDisposePreviousRestoreTheLastKeptCanvas() {
        var c = Compositor(size: PixelSize(width: 2, height: 1))
        frame(&c, full, Self.red)
        frame(&c, right, Self.blue, dispose: .previous)
        frame(&c, right, Self.green, dispose: .previous)
        #expect(pixels(c) == [Self.red, Self.green])
        frame(&c, left, Self.blue)
        #expect(pixels(c) == [Self.blue, Self.red])
    }

    @Test func disposePreviousOnTheFirstFrameActsAsBackground() {
        var c = Compositor(size: PixelSize(width: 2, height: 1))
        frame(&c, full, Self.red, dispose: .previous)
        frame(&c, left, Self.green)
        #expect(pixels(c) == [Self.green, Self.clear])
    }

    @Test func resetStartsAPlayTransparentAndForgetsPendingDisposal() {
        var c = Compositor(size: PixelSize(width: 2, height: 1))
        frame(&c, full, Self.red, dispose: .previous)
        c.reset()
        frame(&c, left, Self.green)
        #expect(pixels(c) == [Self.green, Self.clear])
    }

    @Test func sourceBlendReplacesAlphaToo() {
        var c = Compositor(size: PixelSize(width: 2, height: 1))
        frame(&c, full, Self.red)
        frame(&c, left, [0, 0, 255, 128], blend: .source)
        #expect(pixels(c) == [[0, 0, 255, 128], Self.red])
        frame(&c, left, Self.clear, blend: .source)
        #expect(pixels(c) == [Self.clear, Self.red])
    }

    @Test func overBlendsStraightAlphaExactly() {
        var c = Compositor(size: PixelSize(width: 2, height: 1))
        frame(&c, left, Self.red)
        frame(&c, right, [255, 0, 0, 128], blend: .source)
        frame(&c, full, [0, 0, 255, 128])
        // Half blue over opaque red; half blue over half red (αo = 0.502 + 0.502·0.498).
        #expect(pixels(c) == [[127, 0, 128, 255], [85, 0, 170, 192]])
    }

    @Test func overOnTransparentCopiesTheSourceAndTransparentSourceKeepsTheCanvas() {
        var c = Compositor(size: PixelSize(width: 2, height: 1))
        frame(&c, left, [10, 20, 30, 77])
        frame(&c, right, Self.red)
        frame(&c, right, [0, 255, 0, 0])
        #expect(pixels(c) == [[10, 20, 30, 77], Self.red])
    }

    @Test func premultipliedOutputMultipliesColourByAlpha() {
        var c = Compositor(size: PixelSize(width: 2, height: 1))
        frame(&c, left, [200, 100, 50, 128])
        frame(&c, right, Self.red)
        #expect(pixels(c, format: .rgba8Premultiplied) == [[100, 50, 25, 128], Self.red])
        #expect(pixels(c) == [[200, 100, 50, 128], Self.red], "the canvas itself stays straight")
    }

    @Test(arguments: [DisposeMode.none, .background, .previous])
    func framesPastTheCanvasAreClipped(dispose: DisposeMode) {
        var c = Compositor(size: PixelSize(width: 2, height: 1))
        frame(&c, full, Self.red)
        let clipped = c.beginFrame(rect: PixelRect(x: 1, y: -1, width: 3, height: 3), dispose: dispose)
        #expect(clipped == PixelRect(x: 1, y: 0, width: 1, height: 1))
        let px = (0..<9).flatMap { i in i == 3 ? Self.blue : Self.green }  // only row 1, column 0 lands on the canvas
        px.withUnsafeBytes { c.draw($0, bytesPerRow: 12, rect: PixelRect(x: 1, y: -1, width: 3, height: 3), blend: .source) }
        #expect(pixels(c) == [Self.red, Self.blue])
        frame(&c, PixelRect(x: 5, y: 5, width: 2, height: 2), Self.green)
        #expect(pixels(c) == [Self.red, dispose == .none ? Self.blue : (dispose == .background ? Self.clear : Self.red)])
    }
}
